import Observation
import ReactiveCore

/// An `@Observable` holder whose ``value`` follows a publisher's latest value, for views
/// and other Observation-based code that read `@Observable` models.
///
///     let temperature = ObservableValue(sensor.readings, initial: 0)
///     withObservationTracking { print(temperature.value) } onChange: { redraw() }
///
/// It writes ``value`` on the thread the publisher delivers on; give it a publisher that
/// delivers where the readers run (`receive(on:)`) if that matters to them. Deallocating
/// the holder cancels its subscription.
@Observable
public final class ObservableValue<Value> {
  /// The publisher's latest value, or the initial one until it sends.
  public private(set) var value: Value

  @ObservationIgnored
  private var subscription: AnyCancellable?

  /// Creates a holder that follows `publisher`, starting at `initial`.
  ///
  /// - Parameters:
  ///   - publisher: The publisher to follow.
  ///   - initial: The value until the publisher sends one.
  public init<P: Publisher>(_ publisher: P, initial: Value)
  where P.Output == Value, P.Failure == Never {
    value = initial
    subscription = publisher.sink { [weak self] in self?.value = $0 }
  }

  /// Stops following the publisher; ``value`` keeps its last value.
  public func cancel() {
    subscription?.cancel()
    subscription = nil
  }
}

extension Publisher where Failure == Never {
  /// An `@Observable` holder of this publisher's latest value.
  ///
  /// - Parameter initial: The value until the publisher sends one.
  /// - Returns: A holder whose `value` follows this publisher.
  public func observableValue(initial: Output) -> ObservableValue<Output> {
    ObservableValue(self, initial: initial)
  }
}
