//! [`Loc`]: where a value is in a JSON document, as a stack-allocated linked list of path
//! segments. Building one costs nothing; the path string is rendered only when a problem is
//! reported.

use super::{JsonIssue, Problem, R};

#[derive(Clone, Copy)]
enum Seg<'a> {
    Root,
    Key(&'a str),
    Index(usize),
}

/// A location in a JSON document, for error messages.
#[derive(Clone, Copy)]
pub(crate) struct Loc<'a> {
    parent: Option<&'a Loc<'a>>,
    seg: Seg<'a>,
    name: Option<&'a str>,
}

impl Loc<'static> {
    /// The document root, `$`.
    pub fn root() -> Self {
        Loc {
            parent: None,
            seg: Seg::Root,
            name: None,
        }
    }
}

impl<'a> Loc<'a> {
    /// The member `key` of this object.
    pub fn key<'b>(&'b self, key: &'b str) -> Loc<'b> {
        Loc {
            parent: Some(self),
            seg: Seg::Key(key),
            name: None,
        }
    }

    /// The element `i` of this array.
    pub fn index(&self, i: usize) -> Loc<'_> {
        Loc {
            parent: Some(self),
            seg: Seg::Index(i),
            name: None,
        }
    }

    /// The same location, recording the name of the item found there.
    pub fn named<'b>(self, name: &'b str) -> Loc<'b>
    where
        'a: 'b,
    {
        Loc {
            parent: self.parent,
            seg: self.seg,
            name: Some(name),
        }
    }

    /// An error at this location.
    pub fn err<T>(&self, issue: impl Into<JsonIssue>) -> R<T> {
        Err(Box::new(self.problem(issue)))
    }

    /// A [`JsonIssue::WrongType`] error at this location for the value `found`.
    pub fn wrong_type<T>(&self, expected: &'static str, found: &serde_json::Value) -> R<T> {
        self.err(JsonIssue::wrong_type(expected, found))
    }

    /// A [`JsonIssue::Missing`] error: this object lacks `key`.
    pub fn missing<T>(&self, key: &str) -> R<T> {
        self.err(JsonIssue::Missing {
            key: key.to_owned(),
        })
    }

    /// A [`JsonIssue::OutOfRange`] error at this location.
    pub fn out_of_range<T>(&self, expected: impl Into<String>, found: f64) -> R<T> {
        self.err(JsonIssue::range(expected, found))
    }

    /// The rendered path (`$.skins[0].attachments`).
    pub fn path(&self) -> String {
        self.problem(JsonIssue::Other(String::new())).path
    }

    /// Renders the path and the innermost name.
    pub fn problem(&self, issue: impl Into<JsonIssue>) -> Problem {
        let mut segs = Vec::new();
        let mut name = None;
        let mut cur = Some(self);
        while let Some(l) = cur {
            if name.is_none() {
                name = l.name;
            }
            segs.push(l.seg);
            cur = l.parent;
        }
        let mut path = String::new();
        for s in segs.iter().rev() {
            match s {
                Seg::Root => path.push('$'),
                Seg::Key(k) => {
                    path.push('.');
                    path.push_str(k);
                }
                Seg::Index(i) => {
                    path.push('[');
                    path.push_str(&i.to_string());
                    path.push(']');
                }
            }
        }
        Problem {
            path,
            name: name.map(str::to_owned),
            issue: issue.into(),
        }
    }
}
