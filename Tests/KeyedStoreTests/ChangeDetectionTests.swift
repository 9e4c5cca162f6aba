import Foundation
import KeyedStore
import Testing

@Suite struct ChangeDetectionTests {
  #if os(Linux)
    /// On Linux the store watches its folder with inotify: another store's write reaches
    /// this store's observers even when its polling interval is an hour.
    @Test func anotherStoresWriteIsNoticedWithoutPolling() throws {
      let folder = TemporaryFolder()
      let watching = try Store(
        persistence: .file(path: folder.file(), changeCheckInterval: .seconds(3_600)))
      let heard = Recorder<Int>()
      watching.registerObserver(for: StoreKey<Int>("news")) { heard.append($0.newValue) }
      let writer = try openStore(folder.file())
      writer.stage(7, for: StoreKey<Int>("news"))
      try writer.flush()
      #expect(eventually { heard.values == [7] })
      writer.stage(8, for: StoreKey<Int>("news"))
      try writer.flush()
      #expect(eventually { heard.values == [7, 8] })
    }

    /// Through a symlink, the folder of the real file is the one watched.
    @Test func aWriteToALinkedFileIsNoticed() throws {
      let folder = TemporaryFolder()
      try FileManager.default.createDirectory(
        atPath: folder.file("real"), withIntermediateDirectories: true)
      #expect(symlink(folder.file("real/store.json"), folder.file("link.json")) == 0)
      let watching = try Store(
        persistence: .file(path: folder.file("link.json"), changeCheckInterval: .seconds(3_600)))
      let heard = Recorder<Int>()
      watching.registerObserver(for: StoreKey<Int>("news")) { heard.append($0.newValue) }
      let writer = try openStore(folder.file("real/store.json"))
      writer.stage(9, for: StoreKey<Int>("news"))
      try writer.flush()
      #expect(eventually { heard.values == [9] })
    }
  #endif

  /// A store that was closed stops watching: later writes of others reach it no more.
  @Test func aClosedStoreStopsWatching() throws {
    let folder = TemporaryFolder()
    let watching = try Store(
      persistence: .file(path: folder.file(), changeCheckInterval: .milliseconds(5)))
    let heard = Recorder<Int>()
    watching.registerObserver(for: StoreKey<Int>("news")) { heard.append($0.newValue) }
    try watching.close()
    let writer = try openStore(folder.file())
    writer.stage(1, for: StoreKey<Int>("news"))
    try writer.flush()
    usleep(50_000)
    #expect(heard.values.isEmpty)
  }
}
