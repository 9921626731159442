/// The wake-up that lets idle workers wait for work instead of polling often.
public protocol WorkSignal: Sendable {
    /// Waits until new work may be available or `timeoutSeconds` pass, whichever comes first.
    func waitForWork(timeoutSeconds: Double) async
    /// Tells waiting workers in this process (and, on PostgreSQL, on every machine) to look.
    func signalWork() async
}
