/// A namespace for types that serve as publishers.
///
/// The various operators defined as extensions on ``Publisher`` implement their
/// functionality as classes or structures that extend this enumeration, such as
/// `Publishers.Map`.
public enum Publishers {}
