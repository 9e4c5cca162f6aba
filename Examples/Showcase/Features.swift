import Ripple

/// Counts ticks into the store while active.
final class CounterFeature: Behavior {
  let ticks: AnyPublisher<Int, Never>
  let store: Store

  init(ticks: AnyPublisher<Int, Never>, store: Store) {
    self.ticks = ticks
    self.store = store
  }

  override func willActivate(cancellables: inout Set<AnyCancellable>) {
    let store = store
    ticks.sink { _ in store.update(0, for: .counter) { $0 += 1 } }.store(in: &cancellables)
    store.stage("counter feature activated", for: .message)
  }

  override func didDeactivate() {
    store.stage("counter feature deactivated", for: .message)
  }
}

/// Advances download progress while active; it lives in a scope that is attached and
/// detached as the store's `downloadsEnabled` flag changes.
final class DownloadFeature: Behavior {
  let ticks: AnyPublisher<Int, Never>
  let store: Store

  init(ticks: AnyPublisher<Int, Never>, store: Store) {
    self.ticks = ticks
    self.store = store
  }

  override func willActivate(cancellables: inout Set<AnyCancellable>) {
    let store = store
    ticks.sink { _ in
      store.update(0, for: .progress) { $0 = min(1, $0 + 0.1) }
    }.store(in: &cancellables)
    store.stage("downloads resumed", for: .message)
  }

  override func didDeactivate() {
    store.stage("downloads paused", for: .message)
  }
}

/// Attaches a feature scope while a store flag is true, and detaches it otherwise.
final class FeatureToggle: Behavior {
  let store: Store
  let flag: StoreKey<Bool>
  let feature: Scope
  let featureHost: Scope

  init(store: Store, flag: StoreKey<Bool>, feature: Scope, host: Scope) {
    self.store = store
    self.flag = flag
    self.feature = feature
    featureHost = host
  }

  override func willActivate(cancellables: inout Set<AnyCancellable>) {
    let (feature, host) = (Unchecked(feature), Unchecked(featureHost))
    let apply = { (enabled: Bool) -> Void in
      if enabled {
        _ = try? feature.value.attach(to: host.value)
      } else {
        feature.value.detach()
      }
    }
    apply(store.value(for: flag) ?? false)
    store.publisher(for: flag)
      .map(\.newValue)
      .removeDuplicates()
      .sink(receiveValue: apply)
      .store(in: &cancellables)
  }
}

/// Carries a scope into a `@Sendable` closure; the tree is thread-safe.
struct Unchecked<Value>: @unchecked Sendable {
  let value: Value
  init(_ value: Value) { self.value = value }
}
