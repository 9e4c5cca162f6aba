// `import OpenCombine` brings what OpenCombine's core module declares: Combine's
// publishers, subscribers, subjects and operators (ReactiveCore), and the `.OCombine`
// namespaces of `Result` and `Optional`. The scheduler wrappers come too, since they live
// in the same module of Ripple's; that only adds names.
@_exported import OpenCombineSpellings
@_exported import ReactiveCore
