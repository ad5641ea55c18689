//! [`TaskStore`] behind a pointer: [`ErasedTaskStore`], so a configuration can hold
//! `Arc<dyn ErasedTaskStore>` whichever store was plugged in.

use super::{AddOutcome, Renewal, Settle, StoreError, TaskId, TaskRecord, TaskStore};
use crate::protocol::JsonObject;
use crate::sync::BoxFuture;
use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

/// The dyn-compatible twin of [`TaskStore`]: every operation with a boxed future. Every
/// `TaskStore` is one; `dyn ErasedTaskStore` is a `TaskStore` again, whose operations are the
/// plugged-in store's own (overrides included). Its methods are spelled `dyn_*` so that they
/// never clash with the `TaskStore` methods of the same store.
pub trait ErasedTaskStore: Send + Sync {
    /// [`TaskStore::create`].
    fn dyn_create<'a>(
        &'a self,
        record: &'a TaskRecord,
        max_live_per_principal: usize,
    ) -> BoxFuture<'a, Result<(), StoreError>>;
    /// [`TaskStore::load`].
    fn dyn_load<'a>(
        &'a self,
        id: &'a TaskId,
        now_ms: u64,
    ) -> BoxFuture<'a, Result<Option<TaskRecord>, StoreError>>;
    /// [`TaskStore::put_if`].
    fn dyn_put_if<'a>(
        &'a self,
        record: &'a TaskRecord,
        expected_version: u64,
    ) -> BoxFuture<'a, Result<bool, StoreError>>;
    /// [`TaskStore::wait_change`].
    fn dyn_wait_change<'a>(&'a self, id: &'a TaskId, max_wait: Duration) -> BoxFuture<'a, ()>;
    /// [`TaskStore::get`].
    fn dyn_get<'a>(
        &'a self,
        id: &'a TaskId,
        principal: Option<&'a str>,
        now_ms: u64,
    ) -> BoxFuture<'a, Result<Option<TaskRecord>, StoreError>>;
    /// [`TaskStore::add_answers`].
    fn dyn_add_answers<'a>(
        &'a self,
        id: &'a TaskId,
        principal: Option<&'a str>,
        answers: JsonObject,
        now_ms: u64,
    ) -> BoxFuture<'a, Result<Option<AddOutcome>, StoreError>>;
    /// [`TaskStore::take_answers`].
    fn dyn_take_answers<'a>(
        &'a self,
        id: &'a TaskId,
        owner: &'a str,
        now_ms: u64,
    ) -> BoxFuture<'a, Result<Option<JsonObject>, StoreError>>;
    /// [`TaskStore::request_cancel`].
    fn dyn_request_cancel<'a>(
        &'a self,
        id: &'a TaskId,
        principal: Option<&'a str>,
        now_ms: u64,
    ) -> BoxFuture<'a, Result<Option<TaskRecord>, StoreError>>;
    /// [`TaskStore::renew_lease`].
    fn dyn_renew_lease<'a>(
        &'a self,
        id: &'a TaskId,
        owner: &'a str,
        until_ms: u64,
        now_ms: u64,
    ) -> BoxFuture<'a, Result<Renewal, StoreError>>;
    /// [`TaskStore::settle_lapsed`].
    fn dyn_settle_lapsed<'a>(
        &'a self,
        id: &'a TaskId,
        now_ms: u64,
    ) -> BoxFuture<'a, Result<bool, StoreError>>;
    /// [`TaskStore::park`].
    fn dyn_park<'a>(
        &'a self,
        id: &'a TaskId,
        owner: &'a str,
        questions: JsonObject,
        now_ms: u64,
    ) -> BoxFuture<'a, Result<bool, StoreError>>;
    /// [`TaskStore::withdraw`].
    fn dyn_withdraw<'a>(
        &'a self,
        id: &'a TaskId,
        owner: &'a str,
        keys: Vec<String>,
        now_ms: u64,
    ) -> BoxFuture<'a, Result<bool, StoreError>>;
    /// [`TaskStore::set_status_message`].
    fn dyn_set_status_message<'a>(
        &'a self,
        id: &'a TaskId,
        owner: &'a str,
        message: String,
        now_ms: u64,
    ) -> BoxFuture<'a, Result<bool, StoreError>>;
    /// [`TaskStore::settle`].
    fn dyn_settle<'a>(
        &'a self,
        id: &'a TaskId,
        owner: &'a str,
        end: Settle,
        now_ms: u64,
    ) -> BoxFuture<'a, Result<bool, StoreError>>;
}

impl<S: TaskStore> ErasedTaskStore for S {
    fn dyn_create<'a>(
        &'a self,
        record: &'a TaskRecord,
        max: usize,
    ) -> BoxFuture<'a, Result<(), StoreError>> {
        Box::pin(self.create(record, max))
    }
    fn dyn_load<'a>(
        &'a self,
        id: &'a TaskId,
        now_ms: u64,
    ) -> BoxFuture<'a, Result<Option<TaskRecord>, StoreError>> {
        Box::pin(self.load(id, now_ms))
    }
    fn dyn_put_if<'a>(
        &'a self,
        record: &'a TaskRecord,
        expected: u64,
    ) -> BoxFuture<'a, Result<bool, StoreError>> {
        Box::pin(self.put_if(record, expected))
    }
    fn dyn_wait_change<'a>(&'a self, id: &'a TaskId, max_wait: Duration) -> BoxFuture<'a, ()> {
        Box::pin(self.wait_change(id, max_wait))
    }
    fn dyn_get<'a>(
        &'a self,
        id: &'a TaskId,
        principal: Option<&'a str>,
        now_ms: u64,
    ) -> BoxFuture<'a, Result<Option<TaskRecord>, StoreError>> {
        Box::pin(self.get(id, principal, now_ms))
    }
    fn dyn_add_answers<'a>(
        &'a self,
        id: &'a TaskId,
        principal: Option<&'a str>,
        answers: JsonObject,
        now_ms: u64,
    ) -> BoxFuture<'a, Result<Option<AddOutcome>, StoreError>> {
        Box::pin(self.add_answers(id, principal, answers, now_ms))
    }
    fn dyn_take_answers<'a>(
        &'a self,
        id: &'a TaskId,
        owner: &'a str,
        now_ms: u64,
    ) -> BoxFuture<'a, Result<Option<JsonObject>, StoreError>> {
        Box::pin(self.take_answers(id, owner, now_ms))
    }
    fn dyn_request_cancel<'a>(
        &'a self,
        id: &'a TaskId,
        principal: Option<&'a str>,
        now_ms: u64,
    ) -> BoxFuture<'a, Result<Option<TaskRecord>, StoreError>> {
        Box::pin(self.request_cancel(id, principal, now_ms))
    }
    fn dyn_renew_lease<'a>(
        &'a self,
        id: &'a TaskId,
        owner: &'a str,
        until_ms: u64,
        now_ms: u64,
    ) -> BoxFuture<'a, Result<Renewal, StoreError>> {
        Box::pin(self.renew_lease(id, owner, until_ms, now_ms))
    }
    fn dyn_settle_lapsed<'a>(
        &'a self,
        id: &'a TaskId,
        now_ms: u64,
    ) -> BoxFuture<'a, Result<bool, StoreError>> {
        Box::pin(self.settle_lapsed(id, now_ms))
    }
    fn dyn_park<'a>(
        &'a self,
        id: &'a TaskId,
        owner: &'a str,
        questions: JsonObject,
        now_ms: u64,
    ) -> BoxFuture<'a, Result<bool, StoreError>> {
        Box::pin(self.park(id, owner, questions, now_ms))
    }
    fn dyn_settle<'a>(
        &'a self,
        id: &'a TaskId,
        owner: &'a str,
        end: Settle,
        now_ms: u64,
    ) -> BoxFuture<'a, Result<bool, StoreError>> {
        Box::pin(self.settle(id, owner, end, now_ms))
    }
    fn dyn_withdraw<'a>(
        &'a self,
        id: &'a TaskId,
        owner: &'a str,
        keys: Vec<String>,
        now_ms: u64,
    ) -> BoxFuture<'a, Result<bool, StoreError>> {
        Box::pin(self.withdraw(id, owner, keys, now_ms))
    }
    fn dyn_set_status_message<'a>(
        &'a self,
        id: &'a TaskId,
        owner: &'a str,
        message: String,
        now_ms: u64,
    ) -> BoxFuture<'a, Result<bool, StoreError>> {
        Box::pin(self.set_status_message(id, owner, message, now_ms))
    }
}

/// The erased store is a store again: each operation is the plugged-in store's own.
impl TaskStore for dyn ErasedTaskStore {
    async fn create(&self, record: &TaskRecord, max: usize) -> Result<(), StoreError> {
        self.dyn_create(record, max).await
    }
    async fn load(&self, id: &TaskId, now_ms: u64) -> Result<Option<TaskRecord>, StoreError> {
        self.dyn_load(id, now_ms).await
    }
    async fn put_if(&self, record: &TaskRecord, expected: u64) -> Result<bool, StoreError> {
        self.dyn_put_if(record, expected).await
    }
    async fn wait_change(&self, id: &TaskId, max_wait: Duration) {
        self.dyn_wait_change(id, max_wait).await
    }
    async fn get(
        &self,
        id: &TaskId,
        principal: Option<&str>,
        now_ms: u64,
    ) -> Result<Option<TaskRecord>, StoreError> {
        self.dyn_get(id, principal, now_ms).await
    }
    async fn add_answers(
        &self,
        id: &TaskId,
        principal: Option<&str>,
        answers: JsonObject,
        now_ms: u64,
    ) -> Result<Option<AddOutcome>, StoreError> {
        self.dyn_add_answers(id, principal, answers, now_ms).await
    }
    async fn take_answers(
        &self,
        id: &TaskId,
        owner: &str,
        now_ms: u64,
    ) -> Result<Option<JsonObject>, StoreError> {
        self.dyn_take_answers(id, owner, now_ms).await
    }
    async fn request_cancel(
        &self,
        id: &TaskId,
        principal: Option<&str>,
        now_ms: u64,
    ) -> Result<Option<TaskRecord>, StoreError> {
        self.dyn_request_cancel(id, principal, now_ms).await
    }
    async fn renew_lease(
        &self,
        id: &TaskId,
        owner: &str,
        until_ms: u64,
        now_ms: u64,
    ) -> Result<Renewal, StoreError> {
        self.dyn_renew_lease(id, owner, until_ms, now_ms).await
    }
    async fn settle_lapsed(&self, id: &TaskId, now_ms: u64) -> Result<bool, StoreError> {
        self.dyn_settle_lapsed(id, now_ms).await
    }
    async fn park(
        &self,
        id: &TaskId,
        owner: &str,
        questions: JsonObject,
        now_ms: u64,
    ) -> Result<bool, StoreError> {
        self.dyn_park(id, owner, questions, now_ms).await
    }
    async fn settle(
        &self,
        id: &TaskId,
        owner: &str,
        end: Settle,
        now_ms: u64,
    ) -> Result<bool, StoreError> {
        self.dyn_settle(id, owner, end, now_ms).await
    }
    async fn withdraw(
        &self,
        id: &TaskId,
        owner: &str,
        keys: Vec<String>,
        now_ms: u64,
    ) -> Result<bool, StoreError> {
        self.dyn_withdraw(id, owner, keys, now_ms).await
    }
    async fn set_status_message(
        &self,
        id: &TaskId,
        owner: &str,
        message: String,
        now_ms: u64,
    ) -> Result<bool, StoreError> {
        self.dyn_set_status_message(id, owner, message, now_ms)
            .await
    }
}

/// A shared store is a store: an application keeps a handle on the store it plugs in
/// (`Server::task_store(store.clone())`) to read its own tasks. Every operation is the
/// store's own (overrides included).
impl<S: TaskStore + ?Sized> TaskStore for Arc<S> {
    fn create(
        &self,
        record: &TaskRecord,
        max: usize,
    ) -> impl Future<Output = Result<(), StoreError>> + Send {
        (**self).create(record, max)
    }
    fn load(
        &self,
        id: &TaskId,
        now_ms: u64,
    ) -> impl Future<Output = Result<Option<TaskRecord>, StoreError>> + Send {
        (**self).load(id, now_ms)
    }
    fn put_if(
        &self,
        record: &TaskRecord,
        expected: u64,
    ) -> impl Future<Output = Result<bool, StoreError>> + Send {
        (**self).put_if(record, expected)
    }
    fn wait_change(&self, id: &TaskId, max_wait: Duration) -> impl Future<Output = ()> + Send {
        (**self).wait_change(id, max_wait)
    }
    fn get(
        &self,
        id: &TaskId,
        principal: Option<&str>,
        now_ms: u64,
    ) -> impl Future<Output = Result<Option<TaskRecord>, StoreError>> + Send {
        (**self).get(id, principal, now_ms)
    }
    fn add_answers(
        &self,
        id: &TaskId,
        principal: Option<&str>,
        answers: JsonObject,
        now_ms: u64,
    ) -> impl Future<Output = Result<Option<AddOutcome>, StoreError>> + Send {
        (**self).add_answers(id, principal, answers, now_ms)
    }
    fn take_answers(
        &self,
        id: &TaskId,
        owner: &str,
        now_ms: u64,
    ) -> impl Future<Output = Result<Option<JsonObject>, StoreError>> + Send {
        (**self).take_answers(id, owner, now_ms)
    }
    fn request_cancel(
        &self,
        id: &TaskId,
        principal: Option<&str>,
        now_ms: u64,
    ) -> impl Future<Output = Result<Option<TaskRecord>, StoreError>> + Send {
        (**self).request_cancel(id, principal, now_ms)
    }
    fn renew_lease(
        &self,
        id: &TaskId,
        owner: &str,
        until_ms: u64,
        now_ms: u64,
    ) -> impl Future<Output = Result<Renewal, StoreError>> + Send {
        (**self).renew_lease(id, owner, until_ms, now_ms)
    }
    fn settle_lapsed(
        &self,
        id: &TaskId,
        now_ms: u64,
    ) -> impl Future<Output = Result<bool, StoreError>> + Send {
        (**self).settle_lapsed(id, now_ms)
    }
    fn park(
        &self,
        id: &TaskId,
        owner: &str,
        questions: JsonObject,
        now_ms: u64,
    ) -> impl Future<Output = Result<bool, StoreError>> + Send {
        (**self).park(id, owner, questions, now_ms)
    }
    fn settle(
        &self,
        id: &TaskId,
        owner: &str,
        end: Settle,
        now_ms: u64,
    ) -> impl Future<Output = Result<bool, StoreError>> + Send {
        (**self).settle(id, owner, end, now_ms)
    }
    fn withdraw(
        &self,
        id: &TaskId,
        owner: &str,
        keys: Vec<String>,
        now_ms: u64,
    ) -> impl Future<Output = Result<bool, StoreError>> + Send {
        (**self).withdraw(id, owner, keys, now_ms)
    }
    fn set_status_message(
        &self,
        id: &TaskId,
        owner: &str,
        message: String,
        now_ms: u64,
    ) -> impl Future<Output = Result<bool, StoreError>> + Send {
        (**self).set_status_message(id, owner, message, now_ms)
    }
}
