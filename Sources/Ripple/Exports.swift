// `import Ripple` brings every module of the package, and Dispatch, whose queues are the
// schedulers most code passes to `receive(on:)`, `Store(scheduler:)` and timers. It does
// not bring Foundation: a terminal tool or server that needs `Date`, `URL` or
// `JSONEncoder` imports Foundation itself, and one that does not pays nothing for it. It
// does link FoundationNetworking (and, on Linux, libcurl), for ReactiveFoundationNetworking's
// data task publisher: a program that must not takes the products of the modules it uses.
@_exported import Dispatch
@_exported import Invalidation
@_exported import InvalidationHTML
@_exported import InvalidationTerminal
@_exported import KeyedStore
@_exported import Lineage
@_exported import ReactiveCore
@_exported import ReactiveExtras
@_exported import ReactiveFoundationNetworking
@_exported import Scopes
