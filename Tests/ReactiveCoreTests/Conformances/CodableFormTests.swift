import Foundation
import ReactiveCore
import Testing

/// An error whose coded form is a keyed container with a `description`, as in the
/// OpenCombine fork's tests of `Subscribers.Completion` and `Record`.
private struct DescribedError: Error, Codable, Equatable {
  var description: String
}

/// Every type that is `Codable` in Combine, encoded with `JSONEncoder` and compared byte
/// for byte with the form Combine writes (as the OpenCombine fork's tests, run against
/// Combine, pin it), then decoded back.
///
/// A default `JSONEncoder` writes the keys of an object with several keys in no fixed
/// order (on Linux it follows the process's hash seed; on Darwin it did too before
/// macOS 14), so the forms are pinned with `.sortedKeys`; an object with one key, and so
/// every form without a nested object of several keys, is the same either way. The
/// order in which Combine encodes the keys (`output` before `completion`, `success`
/// before `error`) is pinned by the fork's `RecordTests` and `CompletionTests`.
@Suite struct CodableFormTests {
  /// One coded form: the value, the JSON Combine writes for it, and a round trip.
  struct Form: Sendable, CustomTestStringConvertible {
    let name: String
    let json: String
    let encode: @Sendable () throws -> Data
    let roundTrips: @Sendable (Data) throws -> Bool

    var testDescription: String { name }

    static func of<Value: Codable & Equatable & Sendable>(
      _ name: String, _ value: Value, _ json: String
    ) -> Form {
      Form(
        name: name, json: json,
        encode: {
          let encoder = JSONEncoder()
          encoder.outputFormatting = .sortedKeys
          return try encoder.encode(value)
        },
        roundTrips: { try JSONDecoder().decode(Value.self, from: $0) == value })
    }
  }

  static let forms: [Form] = [
    .of("Demand.max", ["value": Subscribers.Demand.max(42)], #"{"value":42}"#),
    .of("Demand.none", ["value": Subscribers.Demand.none], #"{"value":0}"#),
    .of(
      "Demand.unlimited", ["value": Subscribers.Demand.unlimited],
      #"{"value":9223372036854775808}"#),
    .of(
      "Completion.finished", Subscribers.Completion<DescribedError>.finished,
      #"{"success":true}"#),
    .of(
      "Completion.failure",
      Subscribers.Completion<DescribedError>.failure(DescribedError(description: "oops")),
      #"{"error":{"description":"oops"},"success":false}"#),
    .of(
      "Record, empty", RecordBox(Record<Int, DescribedError>(recording: .init())),
      #"{"recording":{"completion":{"success":true},"output":[]}}"#),
    .of(
      "Record, finished",
      RecordBox(Record<Int, DescribedError>(output: [3, 2, 1], completion: .finished)),
      #"{"recording":{"completion":{"success":true},"output":[3,2,1]}}"#),
    .of(
      "Record, failed",
      RecordBox(
        Record<Int, DescribedError>(
          output: [3, 2, 1], completion: .failure(DescribedError(description: "oops")))),
      #"{"recording":{"completion":{"error":{"description":"oops"},"success":false},"output":[3,2,1]}}"#
    ),
    .of(
      "Record.Recording",
      RecordingBox(
        Record<Int, DescribedError>.Recording(output: [7], completion: .finished)),
      #"{"completion":{"success":true},"output":[7]}"#),
    .of(
      "DispatchQueue.SchedulerTimeType",
      ["value": DispatchQueue.SchedulerTimeType(DispatchTime(uptimeNanoseconds: 42))],
      #"{"value":42}"#),
    .of(
      "DispatchQueue.SchedulerTimeType.Stride",
      ["value": DispatchQueue.SchedulerTimeType.Stride.nanoseconds(419_872)],
      #"{"value":{"_nanoseconds":419872}}"#),
    .of(
      "RunLoop.SchedulerTimeType",
      RunLoop.SchedulerTimeType(Date(timeIntervalSinceReferenceDate: 1024.75)),
      #"{"date":1024.75}"#),
    .of(
      "RunLoop.SchedulerTimeType.Stride", RunLoop.SchedulerTimeType.Stride.seconds(1024.5),
      #"{"magnitude":1024.5}"#),
    .of(
      "OperationQueue.SchedulerTimeType",
      OperationQueue.SchedulerTimeType(Date(timeIntervalSinceReferenceDate: 1024.75)),
      #"{"date":1024.75}"#),
    .of(
      "OperationQueue.SchedulerTimeType.Stride",
      OperationQueue.SchedulerTimeType.Stride.seconds(1024.5), #"{"magnitude":1024.5}"#),
    .of(
      "ImmediateScheduler.SchedulerTimeType.Stride",
      ["value": ImmediateScheduler.SchedulerTimeType.Stride(-42)],
      #"{"value":{"magnitude":-42}}"#),
  ]

  @Test(arguments: forms)
  func encodesAsCombine(_ form: Form) throws {
    let data = try form.encode()
    #expect(String(decoding: data, as: UTF8.self) == form.json)
    #expect(try form.roundTrips(Data(form.json.utf8)))
  }
}

/// `Record` is not `Equatable`; this compares what it replays.
private struct RecordBox: Codable, Equatable, Sendable {
  var record: Record<Int, DescribedError>
  init(_ record: Record<Int, DescribedError>) { self.record = record }
  init(from decoder: any Decoder) throws { record = try .init(from: decoder) }
  func encode(to encoder: any Encoder) throws { try record.encode(to: encoder) }
  static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.record.recording.output == rhs.record.recording.output
      && lhs.record.recording.completion == rhs.record.recording.completion
  }
}

/// `Record.Recording` is not `Equatable`; this compares its output and completion.
private struct RecordingBox: Codable, Equatable, Sendable {
  var recording: Record<Int, DescribedError>.Recording
  init(_ recording: Record<Int, DescribedError>.Recording) { self.recording = recording }
  init(from decoder: any Decoder) throws { recording = try .init(from: decoder) }
  func encode(to encoder: any Encoder) throws { try recording.encode(to: encoder) }
  static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.recording.output == rhs.recording.output
      && lhs.recording.completion == rhs.recording.completion
  }
}
