import Archive
import Foundation
import RunMateTestSupport
import Testing

/// The zip reader on archives written by the real `zip` tool: members listed and inflated byte for byte, unsafe
/// paths recognised, bombs stopped, damage named.
@Suite(.enabled(if: hasZipTools, "needs the zip and gzip tools (scripts/apt-packages.txt)"))
struct ZipTests {
  /// Inflates a member to memory; the bytes, or the error's message.
  static func inflate(_ member: ZipMember, of zip: ZipArchive) -> (Data, String?) {
    var output = Data()
    do {
      try zip.inflate(member) { (bytes) throws(Never) -> Bool in
        output.append(contentsOf: bytes)
        return true
      }
    } catch {
      switch error {
      case .archive(let error): return (output, error.description)
      }
    }
    return (output, nil)
  }

  @Test func membersAreListedAndInflatedByteForByte() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let text = trackText(points: 2_000)
    try FileManager.default.createDirectory(
      at: directory.appendingPathComponent("activities"), withIntermediateDirectories: true)
    try Data(text.utf8).write(to: directory.appendingPathComponent("activities/1.gpx"))
    try Data("x".utf8).write(to: directory.appendingPathComponent("stored.txt"))
    try shell(
      "gzip -k activities/1.gpx && zip -q -r export.zip activities && zip -q -0 export.zip stored.txt",
      in: directory)
    let zip = try ZipArchive(path: directory.appendingPathComponent("export.zip").path, name: "export.zip")
    try zip.readDirectory()
    let files = zip.members.filter { !$0.isDirectory }
    #expect(Set(files.map(\.path)) == ["activities/1.gpx", "activities/1.gpx.gz", "stored.txt"])
    #expect(files.allSatisfy { $0.isSafePath })
    let gpx = try #require(files.first { $0.path == "activities/1.gpx" })
    #expect(gpx.method == 8 && gpx.baseName == "1.gpx")
    let (bytes, error) = Self.inflate(gpx, of: zip)
    #expect(error == nil)
    #expect(bytes == Data(text.utf8))
    let stored = try #require(files.first { $0.path == "stored.txt" })
    #expect(stored.method == 0)
    #expect(Self.inflate(stored, of: zip).0 == Data("x".utf8))
  }

  @Test(arguments: [
    ("../../etc/x.gpx", false), ("/etc/passwd.gpx", false), ("a/../../b.gpx", false), ("..\\..\\w.gpx", false),
    ("C:\\w\\x.gpx", false), ("a/b..c/d.gpx", true), ("activities/1.gpx", true), ("./a.gpx", true),
  ])
  func unsafePathsAreRecognised(_ path: String, _ safe: Bool) {
    let member = ZipMember(
      path: path, method: 0, flags: 0, crc32: 0, compressedSize: 0, uncompressedSize: 0, localHeaderOffset: 0)
    #expect(member.isSafePath == safe)
  }

  /// A name written by `zip` and then changed in both headers to climb out: the reader sees the name as written.
  @Test func aTraversalNameInARealZipIsSeen() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    try Data("<gpx/>".utf8).write(to: directory.appendingPathComponent("aaaaaaaaaaaa.gpx"))
    try shell("zip -q evil.zip aaaaaaaaaaaa.gpx", in: directory)
    let url = directory.appendingPathComponent("evil.zip")
    try replacing("aaaaaaaaaaaa.gpx", with: "../../../xyz.gpx", in: try Data(contentsOf: url)).write(to: url)
    let zip = try ZipArchive(path: url.path, name: "evil.zip")
    try zip.readDirectory()
    #expect(zip.members.map(\.path) == ["../../../xyz.gpx"])
    #expect(zip.members.first?.isSafePath == false)
    #expect(
      ArchiveError.unsafeName(file: "evil.zip", member: "../../../xyz.gpx").description
        == "evil.zip: refusing ../../../xyz.gpx: its path leaves the archive (absolute, or with '..')")
  }

  @Test func aZipBombStopsEarly() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    try shell("head -c 67108864 /dev/zero > zeros.gpx && zip -q -9 bomb.zip zeros.gpx && rm zeros.gpx", in: directory)
    let zip = try ZipArchive(path: directory.appendingPathComponent("bomb.zip").path, name: "bomb.zip")
    try zip.readDirectory()
    let member = try #require(zip.members.first)
    let (bytes, error) = Self.inflate(member, of: zip)
    #expect(error == "bomb.zip: refusing zeros.gpx: it inflates more than 200 times (a zip bomb?)")
    #expect(bytes.count <= (16 << 20) + (256 << 10))
  }

  @Test func aZipCutShortIsNamed() throws {
    let directory = try temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    try Data(trackText(points: 500).utf8).write(to: directory.appendingPathComponent("1.gpx"))
    try shell("zip -q export.zip 1.gpx", in: directory)
    let url = directory.appendingPathComponent("export.zip")
    let data = try Data(contentsOf: url)
    try data.prefix(data.count / 2).write(to: url)
    let zip = try ZipArchive(path: url.path, name: "export.zip")
    #expect(throws: ArchiveError.damagedZip(file: "export.zip", reason: "no central directory (truncated?)")) {
      try zip.readDirectory()
    }
  }
}
