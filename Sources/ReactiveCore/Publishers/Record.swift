/// A publisher that allows for recording a series of inputs and a completion, for later
/// playback to each subscriber.
///
///     let record = Record<Int, Never> { recording in
///         recording.receive(1)
///         recording.receive(completion: .finished)
///     }
public struct Record<Output, Failure: Error>: Publisher {
  /// The recorded output and completion.
  public let recording: Recording

  /// A recorded sequence of outputs, followed by a completion value.
  public struct Recording {
    /// The output which will be sent to a `Subscriber`.
    public private(set) var output: [Output]
    /// The completion which will be sent to a `Subscriber`.
    public private(set) var completion: Subscribers.Completion<Failure>
    private var isCompleted = false

    /// Creates a new recording whose completion is ``Subscribers/Completion/finished``
    /// unless another is received.
    public init() {
      output = []
      completion = .finished
    }

    /// Creates a recording with the given output and completion.
    ///
    /// - Parameters:
    ///   - output: An array of output elements to publish.
    ///   - completion: A completion value to publish after the output elements.
    public init(output: [Output], completion: Subscribers.Completion<Failure> = .finished) {
      self.output = output
      self.completion = completion
      isCompleted = true
    }

    /// Adds an output to the recording. Recording after the completion is a programmer
    /// error and traps, as in Combine.
    ///
    /// - Parameter input: The value to add to the recording.
    public mutating func receive(_ input: Output) {
      precondition(!isCompleted, "Record cannot receive an output after its completion")
      output.append(input)
    }

    /// Adds a completion event to the recording; only one is allowed.
    ///
    /// - Parameter completion: The completion to record.
    public mutating func receive(completion: Subscribers.Completion<Failure>) {
      precondition(!isCompleted, "Record cannot receive a second completion")
      self.completion = completion
      isCompleted = true
    }
  }

  /// Creates a publisher to interactively record a series of outputs and a completion.
  ///
  /// - Parameter record: A recording instance that can be retrieved after completion to
  ///   create new record publishers to replay the recording.
  public init(record: (inout Recording) -> Void) {
    var recording = Recording()
    record(&recording)
    self.recording = recording
  }

  /// Creates a record publisher from an existing recording.
  ///
  /// - Parameter recording: A previously-recorded recording of published elements.
  public init(recording: Recording) { self.recording = recording }

  /// Creates a record publisher to publish the provided elements, followed by the
  /// provided completion value.
  ///
  /// - Parameters:
  ///   - output: An array of output elements to publish.
  ///   - completion: A completion value to publish after the output elements.
  public init(output: [Output], completion: Subscribers.Completion<Failure>) {
    recording = Recording(output: output, completion: completion)
  }

  /// Replays the recording to the subscriber as it demands.
  public func receive<S: Subscriber>(subscriber: S) where Output == S.Input, Failure == S.Failure {
    SequenceSubscription(
      recording.output, completion: recording.completion, downstream: subscriber,
      endedName: "Cancelled Events", mirrorsCompletion: true
    ).start()
  }
}

extension Record.Recording: Sendable where Output: Sendable, Failure: Sendable {}
extension Record: Sendable where Output: Sendable, Failure: Sendable {}
