import Foundation

/// Wakes workers in this process when a job may be waiting, so they need not poll often.
///
/// This is the whole wake-up on SQLite, whose workers live in the process that owns the data
/// folder; PostgreSQL's adds LISTEN/NOTIFY around it to reach other machines.
///
/// A signal that arrives while nobody waits is remembered once (the state is that flag), so a
/// job enqueued just before a worker starts waiting is not missed.
final class LocalWorkSignal: WorkSignal {
    private let waiters = ParkedWaiters(false)

    /// Returns when signalled or after `timeoutSeconds`.
    func waitForWork(timeoutSeconds: Double) async {
        await waiters.wait(timeoutSeconds: timeoutSeconds) { pending in
            defer { pending = false }
            return pending
        }
    }

    func signalWork() async { signal() }

    /// Wakes every waiter, or the next one to wait when none is waiting.
    func signal() {
        waiters.wakeAll { pending, anyoneParked in
            if !anyoneParked { pending = true }
        }
    }
}
