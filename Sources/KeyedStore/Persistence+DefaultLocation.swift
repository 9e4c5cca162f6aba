#if canImport(FoundationEssentials)
  import FoundationEssentials
#else
  import Foundation
#endif

extension Persistence {
  /// A store file in the usual place for an app's settings.
  ///
  ///     let store = try Store(persistence: .defaultFile(app: "MyApp"))
  ///
  /// - Parameters:
  ///   - app: The app's name (or bundle identifier): the folder that holds the file.
  ///   - fileName: The file's name.
  ///   - migrations: As in ``file(path:migrations:ifCorrupt:changeCheckInterval:)``.
  ///   - ifCorrupt: As in ``file(path:migrations:ifCorrupt:changeCheckInterval:)``.
  /// - Returns: File persistence at ``defaultPath(app:fileName:)``.
  /// - Throws: ``StoreError/noDefaultLocation(reason:)`` when no home folder is known.
  public static func defaultFile(
    app: String, fileName: String = "store.json", migrations: [StoreMigration] = [],
    ifCorrupt: CorruptFileHandling = .throwError
  ) throws(StoreError) -> Persistence {
    .file(
      path: try defaultPath(app: app, fileName: fileName), migrations: migrations,
      ifCorrupt: ifCorrupt)
  }

  /// Where an app's store file goes by default: `$XDG_CONFIG_HOME/<app>/<fileName>`,
  /// or `~/.config/<app>/<fileName>`, on Linux; `Application Support/<app>/<fileName>`
  /// on Apple platforms.
  ///
  /// - Parameters:
  ///   - app: The app's name: the folder that holds the file.
  ///   - fileName: The file's name.
  /// - Returns: The path; its folder is created when a store opens it.
  /// - Throws: ``StoreError/noDefaultLocation(reason:)`` when no home folder is known.
  public static func defaultPath(app: String, fileName: String = "store.json")
    throws(StoreError) -> String
  {
    #if canImport(Darwin)
      guard
        let support = FileManager.default.urls(
          for: .applicationSupportDirectory, in: .userDomainMask
        ).first
      else { throw .noDefaultLocation(reason: "no Application Support folder") }
      return support.appendingPathComponent(app).appendingPathComponent(fileName).path
    #else
      try defaultPath(
        app: app, fileName: fileName, environment: ProcessInfo.processInfo.environment)
    #endif
  }

  /// The XDG rule, on an explicit environment (so that tests need not change the
  /// process's): an absolute `XDG_CONFIG_HOME` wins, then `HOME/.config`.
  package static func defaultPath(
    app: String, fileName: String, environment: [String: String]
  ) throws(StoreError) -> String {
    guard !app.isEmpty, !app.contains("/") else {
      throw .noDefaultLocation(reason: "the app name \"\(app)\" is empty or contains a slash")
    }
    if let config = environment["XDG_CONFIG_HOME"], config.hasPrefix("/") {
      return "\(config)/\(app)/\(fileName)"
    }
    if let home = environment["HOME"], home.hasPrefix("/") {
      return "\(home)/.config/\(app)/\(fileName)"
    }
    throw .noDefaultLocation(reason: "neither XDG_CONFIG_HOME nor HOME is an absolute path")
  }
}
