//! Approval conditions: a test on the value a JSON pointer names in a call's args
//! (`"/amount": {"gt": 100}`). Every operator in one test must hold; a missing value meets
//! only `{"exists": false}`. Comparisons are exact on JSON numbers (f64) and strings
//! (code-point order), so the same args always give the same decision.

use serde_json::Value;

/// One test: every operator must hold.
#[derive(Clone, Debug, PartialEq)]
pub struct Condition {
    tests: Vec<(Op, Value)>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Op {
    Gt,
    Gte,
    Lt,
    Lte,
    Eq,
    Ne,
    In,
    Exists,
}

const OPS: &[(&str, Op)] = &[
    ("gt", Op::Gt),
    ("gte", Op::Gte),
    ("lt", Op::Lt),
    ("lte", Op::Lte),
    ("eq", Op::Eq),
    ("ne", Op::Ne),
    ("in", Op::In),
    ("exists", Op::Exists),
];

impl Condition {
    /// `{"gt": 100}`, `{"in": ["EUR", "USD"]}`, `{"exists": true}`, or a bare value (`eq`).
    pub fn parse(test: &Value) -> Result<Condition, String> {
        let Some(map) = test.as_object() else {
            return Ok(Condition { tests: vec![(Op::Eq, test.clone())] });
        };
        let mut tests = Vec::new();
        for (name, operand) in map {
            let Some(&(_, op)) = OPS.iter().find(|(n, _)| n == name) else {
                return Err(format!(
                    "{name:?} is not a condition (one of {})",
                    OPS.iter().map(|(n, _)| *n).collect::<Vec<_>>().join(", ")
                ));
            };
            let fits = match op {
                Op::Gt | Op::Gte | Op::Lt | Op::Lte => operand.is_number() || operand.is_string(),
                Op::In => operand.is_array(),
                Op::Exists => operand.is_boolean(),
                Op::Eq | Op::Ne => true,
            };
            if !fits {
                return Err(format!("{name}: the operand {operand} does not fit the condition"));
            }
            tests.push((op, operand.clone()));
        }
        if tests.is_empty() {
            return Err("an empty condition".into());
        }
        Ok(Condition { tests })
    }

    /// Whether `value` (None: the pointer names nothing) meets every test.
    pub fn holds(&self, value: Option<&Value>) -> bool {
        self.tests.iter().all(|(op, operand)| match (op, value) {
            (Op::Exists, v) => operand.as_bool() == Some(v.is_some()),
            (_, None) => false,
            (Op::Eq, Some(v)) => json_eq(v, operand),
            (Op::Ne, Some(v)) => !json_eq(v, operand),
            (Op::In, Some(v)) => operand.as_array().is_some_and(|items| items.iter().any(|i| json_eq(v, i))),
            (op, Some(v)) => match compare(v, operand) {
                None => false,
                Some(ordering) => match op {
                    Op::Gt => ordering.is_gt(),
                    Op::Gte => ordering.is_ge(),
                    Op::Lt => ordering.is_lt(),
                    _ => ordering.is_le(),
                },
            },
        })
    }

    /// "gt 100", "in [\"EUR\"]" for the approval's rule text.
    pub fn describe(&self) -> String {
        self.tests
            .iter()
            .map(|(op, operand)| {
                let name = OPS.iter().find(|(_, o)| o == op).map_or("?", |(n, _)| *n);
                format!("{name} {}", amber_durable::canonical_json::to_canonical_string(operand))
            })
            .collect::<Vec<_>>()
            .join(" and ")
    }
}

/// Numbers compare as numbers (1 == 1.0), everything else structurally.
fn json_eq(a: &Value, b: &Value) -> bool {
    match (a.as_f64(), b.as_f64()) {
        (Some(x), Some(y)) if a.is_number() && b.is_number() => x == y,
        _ => a == b,
    }
}

fn compare(a: &Value, b: &Value) -> Option<std::cmp::Ordering> {
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => x.as_f64()?.partial_cmp(&y.as_f64()?),
        (Value::String(x), Value::String(y)) => Some(x.cmp(y)),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn conditions_test_the_pointed_value() {
        let gt = Condition::parse(&json!({ "gt": 100 })).unwrap();
        assert!(gt.holds(Some(&json!(100.5))) && !gt.holds(Some(&json!(100))) && !gt.holds(None));
        assert!(!gt.holds(Some(&json!("200"))), "a string is not compared with a number");
        let range = Condition::parse(&json!({ "gte": 1, "lt": 10 })).unwrap();
        assert!(range.holds(Some(&json!(1))) && !range.holds(Some(&json!(10))));
        let among = Condition::parse(&json!({ "in": ["EUR", "USD"] })).unwrap();
        assert!(among.holds(Some(&json!("USD"))) && !among.holds(Some(&json!("GBP"))));
        let absent = Condition::parse(&json!({ "exists": false })).unwrap();
        assert!(absent.holds(None) && !absent.holds(Some(&json!(null))));
        let bare = Condition::parse(&json!("wire")).unwrap();
        assert!(bare.holds(Some(&json!("wire"))));
        assert_eq!(Condition::parse(&json!({ "gt": 1, "ne": 5 })).unwrap().describe(), "gt 1 and ne 5");
        assert!(Condition::parse(&json!({ "bigger": 1 })).unwrap_err().contains("not a condition"));
        assert!(Condition::parse(&json!({ "in": 3 })).is_err());
        assert!(Condition::parse(&json!({})).is_err());
    }
}
