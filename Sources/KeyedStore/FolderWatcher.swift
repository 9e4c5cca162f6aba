import Dispatch

#if canImport(Glibc)
  import Glibc

  /// Watches the folder that holds a store file with inotify, and calls back when an
  /// event names the file or its journal: a writer's rename over it (`IN_MOVED_TO`), a
  /// write in place such as a journal append (`IN_CLOSE_WRITE`), its creation or deletion. The folder, not the file: every write
  /// replaces the file with a new inode, which a watch on the file would lose.
  ///
  /// Events for other names (the lock file, temporary files) are read and ignored.
  ///
  /// # Thread safety
  /// Immutable after `init`; the event handler runs on the queue it was given, and
  /// `cancel()` may be called from any thread (a dispatch source's cancel is).
  final class FolderWatcher: @unchecked Sendable {
    private let source: any DispatchSourceRead

    /// Starts watching, or returns `nil` where inotify is not available (then the store
    /// polls).
    ///
    /// - Parameters:
    ///   - path: The real path of the store file.
    ///   - others: Other files in its folder to watch (the journal).
    ///   - queue: Where `onChange` runs.
    ///   - onChange: Called after a batch of events that named one of the files.
    init?(
      path: String, others: [String] = [], queue: DispatchQueue,
      onChange: @escaping @Sendable () -> Void
    ) {
      let descriptor = inotify_init1(Int32(IN_NONBLOCK) | Int32(IN_CLOEXEC))
      guard descriptor >= 0 else { return nil }
      let events =
        UInt32(IN_MOVED_TO) | UInt32(IN_CLOSE_WRITE) | UInt32(IN_CREATE) | UInt32(IN_DELETE)
        | UInt32(IN_MOVED_FROM)
      guard inotify_add_watch(descriptor, DurableFile.folder(of: path), events) >= 0 else {
        close(descriptor)
        return nil
      }
      let names = ([path] + others).map { Array(DurableFile.lastComponent(of: $0).utf8) }
      source = DispatchSource.makeReadSource(fileDescriptor: descriptor, queue: queue)
      source.setEventHandler {
        if Self.readEvents(descriptor, naming: names) { onChange() }
      }
      source.setCancelHandler { close(descriptor) }
      source.resume()
    }

    /// Stops watching and closes the inotify descriptor.
    func cancel() { source.cancel() }

    deinit { source.cancel() }

    /// Reads every pending event.
    ///
    /// - Returns: Whether one of them named one of `names`.
    private static func readEvents(_ descriptor: Int32, naming names: [[UInt8]]) -> Bool {
      var named = false
      var buffer = [UInt8](repeating: 0, count: 8_192)
      let header = MemoryLayout<inotify_event>.size
      while true {
        let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        if count < 0 && errno == EINTR { continue }
        guard count > 0 else { return named }
        var offset = 0
        while offset + header <= count {
          let length = buffer.withUnsafeBytes { bytes in
            Int(bytes.loadUnaligned(fromByteOffset: offset, as: inotify_event.self).len)
          }
          let start = offset + header
          let end = min(start + length, count)
          let eventName = buffer[start..<end].prefix { $0 != 0 }
          if names.contains(where: { eventName.elementsEqual($0) }) { named = true }
          offset = start + length
        }
      }
    }
  }
#endif
