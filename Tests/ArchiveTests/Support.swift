import Foundation
import Testing

/// Whether the Debian `zip` and `gzip` tools are installed (scripts/apt-packages.txt installs them).
let hasZipTools = ["/usr/bin/zip", "/bin/gzip"].allSatisfy { FileManager.default.isExecutableFile(atPath: $0) }

/// Runs `command` with `/bin/sh -c` in `directory`; fails the test when it exits non-zero.
func shell(_ command: String, in directory: URL) throws {
  let process = Process()
  process.executableURL = URL(fileURLWithPath: "/bin/sh")
  process.arguments = ["-c", command]
  process.currentDirectoryURL = directory
  process.standardOutput = FileHandle.nullDevice
  try process.run()
  process.waitUntilExit()
  try #require(process.terminationStatus == 0, "`\(command)` exited \(process.terminationStatus)")
}

/// Text that compresses like a GPX file: `count` numbered track points.
func trackText(points count: Int) -> String {
  var text = "<?xml version=\"1.0\"?>\n<gpx><trk><trkseg>\n"
  for index in 0..<count {
    text += "<trkpt lat=\"52.\(100_000 + index * 7)\" lon=\"13.\(200_000 + index * 3)\">"
    text += "<time>2024-06-01T07:\(index / 60 % 60):\(index % 60)Z</time></trkpt>\n"
  }
  return text + "</trkseg></trk></gpx>\n"
}

/// `data` with every occurrence of `old` replaced by `new` (the same length), for names written into archives.
func replacing(_ old: String, with new: String, in data: Data) -> Data {
  precondition(old.utf8.count == new.utf8.count)
  var bytes = [UInt8](data)
  let needle = Array(old.utf8)
  let replacement = Array(new.utf8)
  var index = 0
  while index + needle.count <= bytes.count {
    if bytes[index..<(index + needle.count)].elementsEqual(needle) {
      bytes.replaceSubrange(index..<(index + needle.count), with: replacement)
      index += needle.count
    } else {
      index += 1
    }
  }
  return Data(bytes)
}
