#if PostgreSQL
  import Dispatch
  import KeyedStore
  import Logging
  import NIOCore
  import PostgresNIO
  import ReactiveCore

  /// Listens for the namespace's notifications on a connection of its own, and tells the
  /// store to catch up: on each notification, after every reconnection (notifications
  /// sent while it was down are lost, so the store reads every revision it missed), and
  /// on a backstop timer.
  ///
  /// A lost connection is reconnected with backoff: 100 ms, doubling to 5 seconds.
  final class Listener: Sendable {
    let configuration: PostgreSQLBackend.Configuration
    let group: any EventLoopGroup
    let logger: Logger
    let queue = DispatchQueue(label: "Ripple.KeyedStorePostgreSQL.listener")
    let state = LockedBox(ListenerState())

    struct ListenerState {
      var events: StoreBackendEvents?
      var connection: PostgresConnection?
      var timer: (any DispatchSourceTimer)?
      var isStopped = false
      var backoff: Duration = .milliseconds(100)
    }

    init(
      configuration: PostgreSQLBackend.Configuration, group: any EventLoopGroup, logger: Logger
    ) {
      self.configuration = configuration
      self.group = group
      self.logger = logger
    }

    /// Starts listening, and asks the store to look every `interval` × 8 (at least every
    /// 2 seconds) as a backstop, or never without an interval.
    func start(pollingEvery interval: Duration?, events: StoreBackendEvents) {
      state.withLock { $0.events = events }
      queue.async { [self] in connect() }
      guard let interval else { return }
      let period = max(interval * 8, .seconds(2))
      let (seconds, attoseconds) = period.components
      let nanoseconds = Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)
      let timer = DispatchSource.makeTimerSource(queue: queue)
      timer.schedule(
        deadline: .now() + .nanoseconds(nanoseconds), repeating: .nanoseconds(nanoseconds))
      timer.setEventHandler { events.changed() }
      state.withLock { $0.timer = timer }
      timer.resume()
    }

    func stop() {
      let (connection, timer) = state.withLock { state in
        state.isStopped = true
        state.events = nil
        defer {
          state.connection = nil
          state.timer = nil
        }
        return (state.connection, state.timer)
      }
      timer?.cancel()
      connection.map(closeQuietly)
    }

    /// Connects and listens; on failure, or when the connection closes later, tries again
    /// after the backoff. Runs on ``queue``.
    private func connect() {
      guard !state.withLock({ $0.isStopped }) else { return }
      let namespace = configuration.namespace
      let connection: PostgresConnection
      do {
        connection = try PostgresConnection.connect(
          on: group.any(), configuration: configuration.connection, id: 2, logger: logger
        ).wait()
      } catch {
        retryLater()
        return
      }
      do {
        connection.addListener(channel: "ripple_keyed_store") { [weak self] _, notification in
          guard notification.payload == namespace else { return }
          self?.state.withLock { $0.events }?.changed()
        }
        _ = try connection.query("LISTEN ripple_keyed_store", logger: logger).wait()
      } catch {
        closeQuietly(connection)
        retryLater()
        return
      }
      let events = state.withLock { state -> StoreBackendEvents? in
        state.backoff = .milliseconds(100)
        guard !state.isStopped else { return nil }
        state.connection = connection
        return state.events
      }
      guard let events else {
        closeQuietly(connection)
        return
      }
      // What was committed while nobody listened is read now.
      events.changed()
      connection.closeFuture.whenComplete { [weak self] _ in
        guard let self else { return }
        self.queue.async { self.retryLater() }
      }
    }

    /// Connects again after the backoff, which then doubles (to 5 seconds at most).
    private func retryLater() {
      let delay = state.withLock { state -> Duration? in
        guard !state.isStopped else { return nil }
        state.connection = nil
        defer { state.backoff = min(state.backoff * 2, .seconds(5)) }
        return state.backoff
      }
      guard let delay else { return }
      let (seconds, attoseconds) = delay.components
      let nanoseconds = Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)
      queue.asyncAfter(deadline: .now() + .nanoseconds(nanoseconds)) { [weak self] in
        self?.connect()
      }
    }
  }
#endif
