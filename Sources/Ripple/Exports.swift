@_exported import Invalidation
@_exported import ReactiveCore
