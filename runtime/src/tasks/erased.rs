//! [`TaskStore`] behind a pointer: [`ErasedTaskStore`], so a configuration can hold
//! `Arc<dyn ErasedTaskStore>` whichever store was plugged in; and `Arc<S>` as a store.
//!
//! The operations are listed once, in the [`erased!`] call below; the macro writes the
//! dyn trait, the blanket impl that boxes each future, and the two impls that forward back.

use super::{AddOutcome, Renewal, Settle, StoreError, TaskId, TaskRecord, TaskStore};
use crate::protocol::JsonObject;
use crate::sync::BoxFuture;
use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

/// Writes, from one list of `TaskStore` operations (each spelled `name => dyn_name`, with a
/// lifetime of its own for each borrowed argument, as the trait's elided ones are):
/// - the trait `ErasedTaskStore`, each operation returning a boxed future;
/// - `impl<S: TaskStore> ErasedTaskStore for S`, boxing the store's own future;
/// - `impl TaskStore for dyn ErasedTaskStore` and `impl<S: TaskStore + ?Sized> TaskStore for
///   Arc<S>`, forwarding each operation to the store behind the pointer.
///
/// Forwarding every operation (not only the three primitives) is what keeps a store's
/// overrides of the provided operations in force behind either pointer.
macro_rules! erased {
    ($(
        $(#[$doc:meta])*
        fn $name:ident$(<$($lt:lifetime),*>)? => $dyn_name:ident(
            &self $(, $arg:ident: $ty:ty)* $(,)?
        ) -> $out:ty;
    )*) => {
        /// The dyn-compatible twin of [`TaskStore`]: every operation with a boxed future. Every
        /// `TaskStore` is one; `dyn ErasedTaskStore` is a `TaskStore` again, whose operations
        /// are the plugged-in store's own (overrides included). Its methods are spelled
        /// `dyn_*` so that they never clash with the `TaskStore` methods of the same store.
        pub trait ErasedTaskStore: Send + Sync {
            $(
                $(#[$doc])*
                fn $dyn_name<'a $($(, $lt: 'a)*)?>(&'a self $(, $arg: $ty)*)
                    -> BoxFuture<'a, $out>;
            )*
        }

        impl<S: TaskStore> ErasedTaskStore for S {
            $(
                fn $dyn_name<'a $($(, $lt: 'a)*)?>(&'a self $(, $arg: $ty)*)
                    -> BoxFuture<'a, $out>
                {
                    Box::pin(self.$name($($arg),*))
                }
            )*
        }

        /// The erased store is a store again: each operation is the plugged-in store's own.
        impl TaskStore for dyn ErasedTaskStore {
            $(
                fn $name$(<$($lt),*>)?(&self $(, $arg: $ty)*) -> impl Future<Output = $out> + Send {
                    async move { self.$dyn_name($($arg),*).await }
                }
            )*
        }

        /// A shared store is a store: an application keeps a handle on the store it plugs in
        /// (`Server::task_store(store.clone())`) to read its own tasks. Every operation is the
        /// store's own (overrides included).
        impl<S: TaskStore + ?Sized> TaskStore for Arc<S> {
            $(
                fn $name$(<$($lt),*>)?(&self $(, $arg: $ty)*) -> impl Future<Output = $out> + Send {
                    (**self).$name($($arg),*)
                }
            )*
        }
    };
}

erased! {
    /// [`TaskStore::create`].
    fn create<'r> => dyn_create(
        &self,
        record: &'r TaskRecord,
        max_live_per_principal: usize,
    ) -> Result<(), StoreError>;
    /// [`TaskStore::load`].
    fn load<'i> => dyn_load(&self, id: &'i TaskId, now_ms: u64)
        -> Result<Option<TaskRecord>, StoreError>;
    /// [`TaskStore::put_if`].
    fn put_if<'r> => dyn_put_if(&self, record: &'r TaskRecord, expected_version: u64)
        -> Result<bool, StoreError>;
    /// [`TaskStore::wait_change`].
    fn wait_change<'i> => dyn_wait_change(&self, id: &'i TaskId, max_wait: Duration) -> ();
    /// [`TaskStore::get`].
    fn get<'i, 'p> => dyn_get(&self, id: &'i TaskId, principal: Option<&'p str>, now_ms: u64)
        -> Result<Option<TaskRecord>, StoreError>;
    /// [`TaskStore::add_answers`].
    fn add_answers<'i, 'p> => dyn_add_answers(
        &self,
        id: &'i TaskId,
        principal: Option<&'p str>,
        answers: JsonObject,
        now_ms: u64,
    ) -> Result<Option<AddOutcome>, StoreError>;
    /// [`TaskStore::take_answers`].
    fn take_answers<'i, 'o> => dyn_take_answers(&self, id: &'i TaskId, owner: &'o str, now_ms: u64)
        -> Result<Option<JsonObject>, StoreError>;
    /// [`TaskStore::request_cancel`].
    fn request_cancel<'i, 'p> => dyn_request_cancel(
        &self,
        id: &'i TaskId,
        principal: Option<&'p str>,
        now_ms: u64,
    ) -> Result<Option<TaskRecord>, StoreError>;
    /// [`TaskStore::renew_lease`].
    fn renew_lease<'i, 'o> => dyn_renew_lease(
        &self,
        id: &'i TaskId,
        owner: &'o str,
        until_ms: u64,
        now_ms: u64,
    ) -> Result<Renewal, StoreError>;
    /// [`TaskStore::settle_lapsed`].
    fn settle_lapsed<'i> => dyn_settle_lapsed(&self, id: &'i TaskId, now_ms: u64)
        -> Result<bool, StoreError>;
    /// [`TaskStore::park`].
    fn park<'i, 'o> => dyn_park(
        &self,
        id: &'i TaskId,
        owner: &'o str,
        questions: JsonObject,
        now_ms: u64,
    ) -> Result<bool, StoreError>;
    /// [`TaskStore::withdraw`].
    fn withdraw<'i, 'o> => dyn_withdraw(
        &self,
        id: &'i TaskId,
        owner: &'o str,
        keys: Vec<String>,
        now_ms: u64,
    ) -> Result<bool, StoreError>;
    /// [`TaskStore::set_status_message`].
    fn set_status_message<'i, 'o> => dyn_set_status_message(
        &self,
        id: &'i TaskId,
        owner: &'o str,
        message: String,
        now_ms: u64,
    ) -> Result<bool, StoreError>;
    /// [`TaskStore::settle`].
    fn settle<'i, 'o> => dyn_settle(
        &self,
        id: &'i TaskId,
        owner: &'o str,
        end: Settle,
        now_ms: u64,
    ) -> Result<bool, StoreError>;
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tasks::Lease;
    use std::sync::Mutex;

    /// A store that overrides every operation, and logs each one it runs.
    #[derive(Default)]
    struct Probe {
        log: Mutex<Vec<&'static str>>,
    }

    impl Probe {
        fn hit<T>(&self, op: &'static str, out: T) -> T {
            self.log.lock().unwrap().push(op);
            out
        }
    }

    const EVERY_OP: [&str; 14] = [
        "create",
        "load",
        "put_if",
        "wait_change",
        "get",
        "add_answers",
        "take_answers",
        "request_cancel",
        "renew_lease",
        "settle_lapsed",
        "park",
        "withdraw",
        "set_status_message",
        "settle",
    ];

    impl TaskStore for Probe {
        async fn create(&self, _: &TaskRecord, _: usize) -> Result<(), StoreError> {
            self.hit("create", Ok(()))
        }
        async fn load(&self, _: &TaskId, _: u64) -> Result<Option<TaskRecord>, StoreError> {
            self.hit("load", Ok(None))
        }
        async fn put_if(&self, _: &TaskRecord, _: u64) -> Result<bool, StoreError> {
            self.hit("put_if", Ok(false))
        }
        async fn wait_change(&self, _: &TaskId, _: Duration) {
            self.hit("wait_change", ())
        }
        async fn get(
            &self,
            _: &TaskId,
            _: Option<&str>,
            _: u64,
        ) -> Result<Option<TaskRecord>, StoreError> {
            self.hit("get", Ok(None))
        }
        async fn add_answers(
            &self,
            _: &TaskId,
            _: Option<&str>,
            _: JsonObject,
            _: u64,
        ) -> Result<Option<AddOutcome>, StoreError> {
            self.hit("add_answers", Ok(None))
        }
        async fn take_answers(
            &self,
            _: &TaskId,
            _: &str,
            _: u64,
        ) -> Result<Option<JsonObject>, StoreError> {
            self.hit("take_answers", Ok(None))
        }
        async fn request_cancel(
            &self,
            _: &TaskId,
            _: Option<&str>,
            _: u64,
        ) -> Result<Option<TaskRecord>, StoreError> {
            self.hit("request_cancel", Ok(None))
        }
        async fn renew_lease(
            &self,
            _: &TaskId,
            _: &str,
            _: u64,
            _: u64,
        ) -> Result<Renewal, StoreError> {
            self.hit("renew_lease", Ok(Renewal::Lost))
        }
        async fn settle_lapsed(&self, _: &TaskId, _: u64) -> Result<bool, StoreError> {
            self.hit("settle_lapsed", Ok(false))
        }
        async fn park(
            &self,
            _: &TaskId,
            _: &str,
            _: JsonObject,
            _: u64,
        ) -> Result<bool, StoreError> {
            self.hit("park", Ok(false))
        }
        async fn withdraw(
            &self,
            _: &TaskId,
            _: &str,
            _: Vec<String>,
            _: u64,
        ) -> Result<bool, StoreError> {
            self.hit("withdraw", Ok(false))
        }
        async fn set_status_message(
            &self,
            _: &TaskId,
            _: &str,
            _: String,
            _: u64,
        ) -> Result<bool, StoreError> {
            self.hit("set_status_message", Ok(false))
        }
        async fn settle(&self, _: &TaskId, _: &str, _: Settle, _: u64) -> Result<bool, StoreError> {
            self.hit("settle", Ok(false))
        }
    }

    /// Runs every operation of `store`, in the order of [`EVERY_OP`].
    async fn run_every_op<S: TaskStore + ?Sized>(store: &S) {
        let lease = Lease {
            owner: "i1".into(),
            until_ms: 1_000,
        };
        let record = TaskRecord::new(None, "t", 0, 1_000, 500, lease);
        let (id, now) = (&record.id, 0);
        store.create(&record, 1).await.unwrap();
        store.load(id, now).await.unwrap();
        store.put_if(&record, 1).await.unwrap();
        store.wait_change(id, Duration::ZERO).await;
        store.get(id, None, now).await.unwrap();
        store
            .add_answers(id, None, JsonObject::new(), now)
            .await
            .unwrap();
        store.take_answers(id, "i1", now).await.unwrap();
        store.request_cancel(id, None, now).await.unwrap();
        store.renew_lease(id, "i1", 2_000, now).await.unwrap();
        store.settle_lapsed(id, now).await.unwrap();
        store.park(id, "i1", JsonObject::new(), now).await.unwrap();
        store.withdraw(id, "i1", Vec::new(), now).await.unwrap();
        store
            .set_status_message(id, "i1", "m".into(), now)
            .await
            .unwrap();
        store
            .settle(id, "i1", Settle::Cancelled, now)
            .await
            .unwrap();
    }

    /// Each operation, through `dyn ErasedTaskStore`, `Arc<dyn ErasedTaskStore>` and `Arc<S>`,
    /// is the store's own override, not the trait's default (which would run `load` and
    /// `put_if` instead): an operation left out of the `erased!` list fails here.
    #[tokio::test]
    async fn every_operation_is_the_stores_own_behind_either_pointer() {
        let probe = Arc::new(Probe::default());
        let erased: Arc<dyn ErasedTaskStore> = probe.clone();
        run_every_op(&*erased).await;
        run_every_op(&erased).await;
        run_every_op(&probe).await;
        assert_eq!(*probe.log.lock().unwrap(), EVERY_OP.repeat(3));
    }
}
