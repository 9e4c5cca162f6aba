// `import OpenCombineDispatch` brings `DispatchQueue.OCombine` and `queue.ocombine`. In
// ReactiveCore a `DispatchQueue` is itself a scheduler, as with OpenCombine on Linux.
@_exported import Dispatch
@_exported import OpenCombineSpellings
