/// A ``Conduit``'s state in one machine word: the demand, whether a current value is owed,
/// whether the conduit has ended, is delivering its completion, or has released its
/// subscriber, and three facts fixed at creation (the subject's kind, whether the
/// subscriber is boxed, whether the mutexes are annotated for the thread sanitizer).
///
/// A plain value with pure transitions: each returns the next word, or says there is
/// nothing to do, and the conduit applies it to its atomic with a compare-and-swap, so
/// the rules live here, where `ConduitWordTests` checks every transition from every
/// reachable state against a model written with plain fields.
///
/// The life of a conduit, in these bits: live (`ended` clear) → ended by a cancel, or by
/// a completion (`ended` and `completing` together until the completion is delivered) →
/// released (`released`, set once, only when ended and no completion is on its way).
@usableFromInline @frozen
struct ConduitWord: Equatable, Sendable {
  /// The bits.
  @usableFromInline
  var raw: UInt

  @inlinable @inline(__always)
  init(raw: UInt) { self.raw = raw }

  /// A live conduit with no demand.
  @inlinable
  init(owesValue: Bool, boxed: Bool, tracked: Bool, kind: SubjectKind) {
    raw =
      (owesValue ? Self.owesValueBit : 0) | (boxed ? Self.boxedBit : 0)
      | (tracked ? Self.trackedBit : 0) | UInt(kind.rawValue) << Self.kindShift
  }

  // MARK: Layout

  /// Completed or cancelled.
  @inlinable
  static var endedBit: UInt { 1 }
  /// The subscriber has been released.
  @inlinable
  static var releasedBit: UInt { 1 << 1 }
  /// A subject with a current value owes it to the next request, as Combine's does.
  @inlinable
  static var owesValueBit: UInt { 1 << 2 }
  /// The process runs under the thread sanitizer: annotate the mutexes.
  @inlinable
  static var trackedBit: UInt { 1 << 3 }
  /// Where the subject's kind sits (2 bits).
  @inlinable
  static var kindShift: UInt { 4 }
  /// The completion is on its way to the subscriber: releasing it waits.
  @inlinable
  static var completingBit: UInt { 1 << 6 }
  /// The subscriber is a struct, held in a ``SubscriberBox``.
  @inlinable
  static var boxedBit: UInt { 1 << 7 }
  /// Where the demand count sits: the high bits.
  @inlinable
  static var demandShift: UInt { 8 }
  /// The demand count that means unlimited (and any count that would reach it).
  @inlinable
  static var unlimited: UInt { UInt.max >> demandShift }

  // MARK: Facts

  /// Completed or cancelled.
  @inlinable @inline(__always)
  var isEnded: Bool { raw & Self.endedBit != 0 }
  /// The subscriber has been released.
  @inlinable @inline(__always)
  var isReleased: Bool { raw & Self.releasedBit != 0 }
  /// The current value is owed to the next request.
  @inlinable @inline(__always)
  var owesValue: Bool { raw & Self.owesValueBit != 0 }
  /// The completion is on its way to the subscriber.
  @inlinable @inline(__always)
  var isCompleting: Bool { raw & Self.completingBit != 0 }
  /// The subscriber is held in a ``SubscriberBox``.
  @inlinable @inline(__always)
  var isBoxed: Bool { raw & Self.boxedBit != 0 }
  /// The mutexes are annotated for the thread sanitizer.
  @inlinable @inline(__always)
  var isTracked: Bool { raw & Self.trackedBit != 0 }
  /// The subject's kind.
  @inlinable
  var kind: SubjectKind { SubjectKind(rawValue: UInt8(raw >> Self.kindShift & 3)) ?? .passthrough }
  /// The outstanding demand, as a count (``unlimited`` for unlimited).
  @inlinable @inline(__always)
  var demandCount: UInt { raw >> Self.demandShift }
  /// The outstanding demand.
  @inlinable
  var demand: Subscribers.Demand {
    demandCount == Self.unlimited ? .unlimited : .max(Int(demandCount))
  }
  /// The common case of a value: live, nothing owed, unlimited demand, so there is
  /// nothing to count.
  @inlinable @inline(__always)
  var deliversWithoutCounting: Bool {
    raw & (Self.endedBit | Self.owesValueBit) == 0 && demandCount == Self.unlimited
  }
  /// Ended, the completion (if any) delivered, not yet released.
  @inlinable @inline(__always)
  var isDueForRelease: Bool {
    raw & (Self.endedBit | Self.completingBit | Self.releasedBit) == Self.endedBit
  }

  // MARK: Transitions

  /// This word with its demand count replaced.
  @inlinable @inline(__always)
  func with(demandCount count: UInt) -> ConduitWord {
    ConduitWord(raw: raw & ~(Self.unlimited << Self.demandShift) | count << Self.demandShift)
  }

  /// `current` plus `more`, saturating at unlimited.
  @inlinable @inline(__always)
  static func adding(_ more: Subscribers.Demand, to current: UInt) -> UInt {
    guard current != unlimited, let count = more.max, UInt(count) < unlimited - current else {
      return unlimited
    }
    return current + UInt(count)
  }

  /// A value arrives: whether it is delivered, and the word after taking one unit of
  /// demand for it. A live conduit with no demand drops it, and, for a subject with a
  /// current value, owes that value to the next request; an ended conduit, or one that
  /// already owes the current value, drops it and stays as it is.
  @inlinable @inline(__always)
  func offeringValue() -> (next: ConduitWord, delivers: Bool) {
    if raw & (Self.endedBit | Self.owesValueBit) != 0 { return (self, false) }
    let count = demandCount
    if count == Self.unlimited { return (self, true) }
    if count > 0 { return (with(demandCount: count - 1), true) }
    return (kind.keepsCurrentValue ? ConduitWord(raw: raw | Self.owesValueBit) : self, false)
  }

  /// A delivery returned `more` demand: added unless the conduit has ended.
  @inlinable @inline(__always)
  func returningDemand(_ more: Subscribers.Demand) -> ConduitWord {
    isEnded ? self : with(demandCount: Self.adding(more, to: demandCount))
  }

  /// The subscriber requests `demand` (at least one): the word after adding it, and
  /// whether the owed current value is delivered now (taking one unit of it), or `nil`
  /// once the conduit has ended.
  @inlinable
  func requesting(_ demand: Subscribers.Demand) -> (next: ConduitWord, deliversOwedValue: Bool)? {
    if isEnded { return nil }
    let owed = owesValue
    let count = Self.adding(owed ? demand - 1 : demand, to: demandCount)
    let cleared = owed ? ConduitWord(raw: raw & ~Self.owesValueBit) : self
    return (cleared.with(demandCount: count), owed)
  }

  /// The subject completes: ended, with the completion on its way; `nil` once ended.
  @inlinable
  func finishing() -> ConduitWord? {
    isEnded ? nil : ConduitWord(raw: raw | Self.endedBit | Self.completingBit)
  }

  /// The completion has been delivered: releasing no longer waits for it.
  @inlinable
  func completionDelivered() -> ConduitWord {
    ConduitWord(raw: raw & ~Self.completingBit)
  }

  /// The subscriber cancels: ended; `nil` once ended.
  @inlinable
  func cancelling() -> ConduitWord? {
    isEnded ? nil : ConduitWord(raw: raw | Self.endedBit)
  }

  /// The subscriber is released: `nil` unless it is due (``isDueForRelease``).
  @inlinable
  func releasing() -> ConduitWord? {
    isDueForRelease ? ConduitWord(raw: raw | Self.releasedBit) : nil
  }
}
