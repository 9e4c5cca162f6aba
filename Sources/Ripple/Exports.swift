@_exported import Invalidation
@_exported import ReactiveCore
@_exported import Scopes
