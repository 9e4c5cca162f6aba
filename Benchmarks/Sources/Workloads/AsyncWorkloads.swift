import AsyncAlgorithms
import Dispatch

/// What a Linux user picks instead of Combine: the core workloads as `AsyncStream` and
/// `AsyncChannel` (swift-async-algorithms 1.1.4) pipelines, each consumed by a
/// `for await` loop in a child task while the calling task produces.
///
/// Each function blocks its (synchronous) caller until the consumer has seen every value,
/// so a timing around it covers production, hand-over and consumption. An `AsyncStream`
/// buffers without bound (its producer never waits); an `AsyncChannel`'s `send` waits for
/// the consumer to take the value, a rendezvous per value. `merge` and `combineLatest` are
/// swift-async-algorithms' two-base operators; `flatMap` is the standard library's (it
/// concatenates, which for a one-value inner sequence gives what Ripple's `flatMap` of a
/// `Just` gives).
public enum AsyncWorkloads {
  /// Runs `body` in a task and blocks the calling thread until it ends.
  static func blocking(_ body: @escaping @Sendable () async -> Int) {
    let done = DispatchSemaphore(value: 0)
    let result = ResultBox()
    Task {
      result.value = await body()
      done.signal()
    }
    done.wait()
    blackHole &+= result.value
  }

  /// Carries the consumers' checksum out of the task (written once, before the signal).
  final class ResultBox: @unchecked Sendable {
    var value = 0
  }

  /// Sums a sequence of integers: the `for await` loop every workload ends in.
  static func consume<S: AsyncSequence>(_ sequence: S) async -> Int where S.Element == Int {
    var sum = 0
    do {
      for try await value in sequence { sum &+= value }
    } catch {}
    return sum
  }

  static func makeStream() -> (AsyncStream<Int>, AsyncStream<Int>.Continuation) {
    AsyncStream.makeStream(of: Int.self, bufferingPolicy: .unbounded)
  }

  // MARK: - AsyncStream

  /// `pipeline`: yield → `map` → `filter` → `for await`, per value.
  public static func streamPipeline(_ n: Int) {
    blocking {
      let (stream, continuation) = makeStream()
      async let sum = consume(stream.map { $0 &+ 1 }.filter { $0 & 1 == 0 })
      for i in 0..<n { continuation.yield(i) }
      continuation.finish()
      return await sum
    }
  }

  /// `subject_sink`: yield → `for await`, per value.
  public static func streamSubjectSink(_ n: Int) {
    blocking {
      let (stream, continuation) = makeStream()
      async let sum = consume(stream)
      for i in 0..<n { continuation.yield(i) }
      continuation.finish()
      return await sum
    }
  }

  /// `fanout_1000`: each value yielded to 1,000 streams, each read by its own task; per
  /// delivery (an `AsyncStream` has one consumer, so a broadcast is one stream per reader).
  public static func streamFanout(_ n: Int) {
    blocking {
      let pairs = (0..<1_000).map { _ in makeStream() }
      return await withTaskGroup(of: Int.self) { group in
        for (stream, _) in pairs { group.addTask { await consume(stream) } }
        for i in 0..<(n / 1_000) {
          for (_, continuation) in pairs { continuation.yield(i) }
        }
        for (_, continuation) in pairs { continuation.finish() }
        return await group.reduce(0) { $0 &+ $1 }
      }
    }
  }

  /// `merge`: values yielded alternately into two streams, `merge(_:_:)`, per value.
  public static func streamMerge(_ n: Int) {
    blocking {
      let (a, aIn) = makeStream()
      let (b, bIn) = makeStream()
      async let sum = consume(merge(a, b))
      for i in 0..<(n / 2) {
        aIn.yield(i)
        bIn.yield(i)
      }
      aIn.finish()
      bIn.finish()
      return await sum
    }
  }

  /// `combine_latest`: values yielded alternately into two streams, `combineLatest(_:_:)`,
  /// per value.
  public static func streamCombineLatest(_ n: Int) {
    blocking {
      let (a, aIn) = makeStream()
      let (b, bIn) = makeStream()
      async let sum = consume(combineLatest(a, b).map { $0.0 &+ $0.1 })
      for i in 0..<(n / 2) {
        aIn.yield(i)
        bIn.yield(i)
      }
      aIn.finish()
      bIn.finish()
      return await sum
    }
  }

  /// `flat_map`: each value flattened from a one-element sequence, per value.
  public static func streamFlatMap(_ n: Int) {
    blocking {
      let (stream, continuation) = makeStream()
      async let sum = consume(stream.flatMap { [$0].async })
      for i in 0..<n { continuation.yield(i) }
      continuation.finish()
      return await sum
    }
  }

  // MARK: - AsyncChannel

  /// `pipeline`: send → `map` → `filter` → `for await`, per value.
  public static func channelPipeline(_ n: Int) {
    blocking {
      let channel = AsyncChannel<Int>()
      async let sum = consume(channel.map { $0 &+ 1 }.filter { $0 & 1 == 0 })
      for i in 0..<n { await channel.send(i) }
      channel.finish()
      return await sum
    }
  }

  /// `subject_sink`: send → `for await`, per value.
  public static func channelSubjectSink(_ n: Int) {
    blocking {
      let channel = AsyncChannel<Int>()
      async let sum = consume(channel)
      for i in 0..<n { await channel.send(i) }
      channel.finish()
      return await sum
    }
  }

  /// `fanout_1000`: each value sent on 1,000 channels, each read by its own task; per
  /// delivery (a channel hands each value to one reader, so a broadcast is one channel
  /// per reader).
  public static func channelFanout(_ n: Int) {
    blocking {
      let channels = (0..<1_000).map { _ in AsyncChannel<Int>() }
      return await withTaskGroup(of: Int.self) { group in
        for channel in channels { group.addTask { await consume(channel) } }
        for i in 0..<(n / 1_000) {
          for channel in channels { await channel.send(i) }
        }
        for channel in channels { channel.finish() }
        return await group.reduce(0) { $0 &+ $1 }
      }
    }
  }

  /// `merge`: values sent alternately on two channels, `merge(_:_:)`, per value.
  public static func channelMerge(_ n: Int) {
    blocking {
      let a = AsyncChannel<Int>()
      let b = AsyncChannel<Int>()
      async let sum = consume(merge(a, b))
      for i in 0..<(n / 2) {
        await a.send(i)
        await b.send(i)
      }
      a.finish()
      b.finish()
      return await sum
    }
  }

  /// `combine_latest`: values sent alternately on two channels, `combineLatest(_:_:)`,
  /// per value.
  public static func channelCombineLatest(_ n: Int) {
    blocking {
      let a = AsyncChannel<Int>()
      let b = AsyncChannel<Int>()
      async let sum = consume(combineLatest(a, b).map { $0.0 &+ $0.1 })
      for i in 0..<(n / 2) {
        await a.send(i)
        await b.send(i)
      }
      a.finish()
      b.finish()
      return await sum
    }
  }

  /// `flat_map`: each value sent, then flattened from a one-element sequence, per value.
  public static func channelFlatMap(_ n: Int) {
    blocking {
      let channel = AsyncChannel<Int>()
      async let sum = consume(channel.flatMap { [$0].async })
      for i in 0..<n { await channel.send(i) }
      channel.finish()
      return await sum
    }
  }
}
