//! The tasks the agent created: their state, and the reply once the model answered.
//! Bounded: past [`MAX_TASKS`] the oldest are forgotten (GetTask then answers
//! TaskNotFoundError, as for any task the agent no longer holds).

use std::collections::{HashMap, VecDeque};
use std::sync::Mutex;
use std::sync::atomic::{AtomicU64, Ordering};

/// The most tasks kept.
const MAX_TASKS: usize = 4096;

/// One task as the agent holds it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Task {
    pub id: String,
    pub context_id: String,
    /// A 0.3 state name (`working`, `completed`, `failed`); `answer.rs` spells it.
    pub state: &'static str,
    /// The model's reply, once it came.
    pub reply: Option<String>,
    /// Why the task failed, when it did.
    pub failure: Option<String>,
}

#[derive(Default)]
pub struct Tasks {
    next: AtomicU64,
    held: Mutex<(HashMap<String, Task>, VecDeque<String>)>,
}

impl Tasks {
    /// A new task, working, in `context_id` (a new context when the message named none).
    pub fn create(&self, context_id: Option<&str>) -> Task {
        let n = self.next.fetch_add(1, Ordering::Relaxed) + 1;
        let task = Task {
            id: format!("task-{n}"),
            context_id: context_id.map_or_else(|| format!("context-{n}"), str::to_string),
            state: "working",
            reply: None,
            failure: None,
        };
        self.put(task.clone());
        task
    }

    /// Stores `task` (replacing the one of its id).
    pub fn put(&self, task: Task) {
        let mut held = self.held.lock().unwrap_or_else(|p| p.into_inner());
        let (map, order) = &mut *held;
        if map.insert(task.id.clone(), task.clone()).is_none() {
            order.push_back(task.id);
        }
        while order.len() > MAX_TASKS {
            if let Some(oldest) = order.pop_front() {
                map.remove(&oldest);
            }
        }
    }

    pub fn get(&self, id: &str) -> Option<Task> {
        let held = self.held.lock().unwrap_or_else(|p| p.into_inner());
        held.0.get(id).cloned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tasks_are_created_updated_and_found() {
        let tasks = Tasks::default();
        let mut task = tasks.create(Some("ctx"));
        assert_eq!(task.context_id, "ctx");
        task.state = "completed";
        tasks.put(task.clone());
        assert_eq!(tasks.get(&task.id), Some(task));
        assert_eq!(tasks.get("task-999"), None);
        assert_ne!(tasks.create(None).context_id, "ctx");
    }
}
