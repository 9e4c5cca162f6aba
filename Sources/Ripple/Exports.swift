@_exported import Invalidation
@_exported import InvalidationHTML
@_exported import InvalidationTerminal
@_exported import KeyedStore
@_exported import Lineage
@_exported import ReactiveCore
@_exported import ReactiveExtras
@_exported import Scopes
