// `import OpenCombineFoundation` brings `RunLoop.OCombine`, `OperationQueue.OCombine`,
// `URLSession.OCombine` and their `.ocombine` accessors, and Combine's own spellings that
// OpenCombine offers on Linux: `URLSession.shared.dataTaskPublisher(for:)` and
// `URLSession.DataTaskPublisher` (ReactiveFoundationNetworking), `RunLoop` and
// `OperationQueue` as schedulers, `NotificationCenter.Publisher`, `Timer.publish`
// (ReactiveCore).
@_exported import OpenCombineNetworkingSpellings
@_exported import OpenCombineSpellings
@_exported import ReactiveCore
@_exported import ReactiveFoundationNetworking
