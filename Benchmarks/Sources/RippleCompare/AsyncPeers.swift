import Workloads

/// A workload's `AsyncStream` and `AsyncChannel` peers (issue 30, item 1), measured in
/// the same interleaved rounds as Ripple, OpenCombine and the baseline. They run fewer
/// operations than Ripple (each hands values between tasks), so a round stays short.
struct AsyncPeers {
  let stream: Run
  let streamOperations: Int
  let channel: Run
  let channelOperations: Int
}

/// The async peers, by workload name.
nonisolated(unsafe) let asyncPeers: [String: AsyncPeers] = [
  "pipeline": AsyncPeers(
    stream: AsyncWorkloads.streamPipeline, streamOperations: 200_000,
    channel: AsyncWorkloads.channelPipeline, channelOperations: 50_000),
  "subject_sink": AsyncPeers(
    stream: AsyncWorkloads.streamSubjectSink, streamOperations: 200_000,
    channel: AsyncWorkloads.channelSubjectSink, channelOperations: 50_000),
  "fanout_1000": AsyncPeers(
    stream: AsyncWorkloads.streamFanout, streamOperations: 200_000,
    channel: AsyncWorkloads.channelFanout, channelOperations: 50_000),
  "merge": AsyncPeers(
    stream: AsyncWorkloads.streamMerge, streamOperations: 200_000,
    channel: AsyncWorkloads.channelMerge, channelOperations: 50_000),
  "combine_latest": AsyncPeers(
    stream: AsyncWorkloads.streamCombineLatest, streamOperations: 200_000,
    channel: AsyncWorkloads.channelCombineLatest, channelOperations: 50_000),
  "flat_map": AsyncPeers(
    stream: AsyncWorkloads.streamFlatMap, streamOperations: 200_000,
    channel: AsyncWorkloads.channelFlatMap, channelOperations: 50_000),
]
