import Foundation
import RunMateTestSupport

// Hostile inputs made in code: activity files with absurd numbers, a zip bomb, garbage bytes. Nothing here is a
// checked-in fixture, so each row's files are written into its own temporary directory.

enum HostileFiles {
  /// A TCX file with one activity whose trackpoints carry `distances` (as written), 10 s apart.
  static func tcx(distances: [String], lapDistance: String = "1000", lapSeconds: String = "600") -> String {
    let points = distances.enumerated().map { index, distance in
      let second = String(format: "%02d", index * 10 % 60)
      let minute = String(format: "%02d", index * 10 / 60)
      return "<Trackpoint><Time>2027-01-05T07:\(minute):\(second)Z</Time>"
        + "<DistanceMeters>\(distance)</DistanceMeters></Trackpoint>"
    }.joined(separator: "\n          ")
    return """
      <?xml version="1.0" encoding="UTF-8"?>
      <TrainingCenterDatabase xmlns="http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v2">
        <Activities>
          <Activity Sport="Running">
            <Id>2027-01-05T07:00:00Z</Id>
            <Lap StartTime="2027-01-05T07:00:00Z">
              <TotalTimeSeconds>\(lapSeconds)</TotalTimeSeconds>
              <DistanceMeters>\(lapDistance)</DistanceMeters>
              <Intensity>Active</Intensity>
              <TriggerMethod>Manual</TriggerMethod>
              <Track>
                \(points)
              </Track>
            </Lap>
          </Activity>
        </Activities>
      </TrainingCenterDatabase>

      """
  }

  /// A GPX track through `points` (latitude, longitude, time).
  static func gpx(_ points: [(lat: String, lon: String, time: String)], extra: String = "") -> String {
    let body = points.map { "   <trkpt lat=\"\($0.lat)\" lon=\"\($0.lon)\">\(extra)<time>\($0.time)</time></trkpt>" }
      .joined(separator: "\n")
    return """
      <?xml version="1.0" encoding="UTF-8"?>
      <gpx version="1.1" creator="hostile" xmlns="http://www.topografix.com/GPX/1/1">
       <trk><name>hostile</name><type>running</type>
        <trkseg>
      \(body)
        </trkseg>
       </trk>
      </gpx>

      """
  }

  /// A plausible GPX run: `count` points 10 s and about 30 m apart, starting 2027-01-05 07:00 UTC.
  static func plausibleGPX(count: Int = 30, extra: String = "") -> String {
    var points: [(lat: String, lon: String, time: String)] = []
    for index in 0..<count {
      let latitude = 52.5 + Double(index) * 0.00027
      let seconds = index * 10
      points.append(
        (
          lat: String(format: "%.5f", latitude), lon: "13.40000",
          time: String(format: "2027-01-05T07:%02d:%02dZ", seconds / 60, seconds % 60)
        ))
    }
    return gpx(points, extra: extra)
  }

  /// The daily-totals CSV `runmate health import` reads.
  static func healthCSV(_ rows: [String]) -> String {
    (["date,steps,distance_km,active_kcal"] + rows).joined(separator: "\n") + "\n"
  }

  /// Bytes from a fixed-seed generator (the same garbage every run).
  static func garbage(count: Int, seed: UInt64 = 0x5EED) -> Data {
    var state = seed
    var bytes = [UInt8](repeating: 0, count: count)
    for index in bytes.indices {
      state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      bytes[index] = UInt8(truncatingIfNeeded: state >> 33)
    }
    return Data(bytes)
  }

  /// A zip with one entry, `apple_health_export/export.xml`: `head`, then `fill` repeated `count` times, then
  /// `tail`. The run is one dynamic-Huffman deflate block of length-258 copies at 2 bits each, so a few MiB of
  /// zip inflate to gigabytes (a classic zip bomb; the sizes and the CRC in the headers are honest).
  static func zipBomb(head: String, fill: UInt8, count: Int, tail: String) -> Data {
    var bits = BitWriter()
    // Block 1, fixed Huffman: the head and one fill byte as literals.
    bits.write(0, count: 1)
    bits.write(1, count: 2)
    for byte in Array(head.utf8) + [fill] { bits.writeFixedLiteral(byte) }
    bits.writeHuffman(0, length: 7)  // end of block (256)
    // Block 2, dynamic Huffman: literal/length codes 256 and 285 (copy 258) get 1 bit each, distance code 0
    // (distance 1) gets 1 bit; the code-length code uses symbols 1 and 18, 1 bit each.
    bits.write(0, count: 1)
    bits.write(2, count: 2)
    bits.write(29, count: 5)  // HLIT: 286 codes
    bits.write(0, count: 5)  // HDIST: 1 code
    bits.write(14, count: 4)  // HCLEN: 18 code-length codes
    // Order 16,17,18,0,8,7,9,6,10,5,11,4,12,3,13,2,14,1: symbol 18 (index 2) and symbol 1 (index 17) get 1 bit.
    for index in 0..<18 { bits.write(index == 2 || index == 17 ? 1 : 0, count: 3) }
    // Code lengths 0…255 = 0, 256 = 1, 257…284 = 0, 285 = 1, then distance 0 = 1. Canonical codes: 1 -> 0, 18 -> 1.
    bits.writeHuffman(1, length: 1)
    bits.write(127, count: 7)  // 138 zeros
    bits.writeHuffman(1, length: 1)
    bits.write(107, count: 7)  // 118 zeros
    bits.writeHuffman(0, length: 1)  // 256: 1
    bits.writeHuffman(1, length: 1)
    bits.write(17, count: 7)  // 28 zeros
    bits.writeHuffman(0, length: 1)  // 285: 1
    bits.writeHuffman(0, length: 1)  // distance 0: 1
    // Copies: literal/length 285 -> code 1, distance 0 -> code 0; four copies are the byte 0b01010101.
    var copies = (count - 1) / 258
    let rest = (count - 1) % 258
    while copies > 0 && !bits.isAligned {
      bits.writeHuffman(1, length: 1)
      bits.writeHuffman(0, length: 1)
      copies -= 1
    }
    bits.appendAlignedBytes(0x55, count: copies / 4)
    for _ in 0..<(copies % 4) {
      bits.writeHuffman(1, length: 1)
      bits.writeHuffman(0, length: 1)
    }
    bits.writeHuffman(0, length: 1)  // end of block (256)
    // Block 3, fixed Huffman, final: the remaining fill bytes and the tail.
    bits.write(1, count: 1)
    bits.write(1, count: 2)
    for byte in Array(repeating: fill, count: rest) + Array(tail.utf8) { bits.writeFixedLiteral(byte) }
    bits.writeHuffman(0, length: 7)
    let deflated = bits.finish()

    let headBytes = Array(head.utf8)
    let tailBytes = Array(tail.utf8)
    var crc = CRC32.checksum(headBytes)
    crc = CRC32.combine(crc, CRC32.run(of: fill, count: count), count)
    crc = CRC32.combine(crc, CRC32.checksum(tailBytes), tailBytes.count)
    let size = UInt32(headBytes.count + count + tailBytes.count)
    let name = Array("apple_health_export/export.xml".utf8)
    var zip = Data()
    func u16(_ value: Int) { zip.append(contentsOf: [UInt8(value & 0xff), UInt8(value >> 8 & 0xff)]) }
    func u32(_ value: UInt32) { for shift in [0, 8, 16, 24] { zip.append(UInt8(value >> UInt32(shift) & 0xff)) } }
    u32(0x0403_4b50)
    u16(20)
    u16(0)
    u16(8)
    u16(0)
    u16(0x21)
    u32(crc)
    u32(UInt32(deflated.count))
    u32(size)
    u16(name.count)
    u16(0)
    zip.append(contentsOf: name)
    zip.append(deflated)
    let directory = UInt32(zip.count)
    u32(0x0201_4b50)
    u16(20)
    u16(20)
    u16(0)
    u16(8)
    u16(0)
    u16(0x21)
    u32(crc)
    u32(UInt32(deflated.count))
    u32(size)
    u16(name.count)
    u16(0)
    u16(0)
    u16(0)
    u16(0)
    u32(0)
    u32(0)
    zip.append(contentsOf: name)
    let directorySize = UInt32(zip.count) - directory
    u32(0x0605_4b50)
    u16(0)
    u16(0)
    u16(1)
    u16(1)
    u32(directorySize)
    u32(directory)
    u16(0)
    return zip
  }

  /// Deflate's bit order: fields least significant bit first, Huffman codes most significant bit first.
  struct BitWriter {
    private var bytes: [UInt8] = []
    private var buffer: UInt64 = 0
    private var used = 0

    var isAligned: Bool { used % 8 == 0 }

    mutating func write(_ value: UInt32, count: Int) {
      buffer |= UInt64(value) << UInt64(used)
      used += count
      while used >= 8 {
        bytes.append(UInt8(buffer & 0xff))
        buffer >>= 8
        used -= 8
      }
    }

    mutating func writeHuffman(_ code: UInt32, length: Int) {
      var reversed: UInt32 = 0
      for bit in 0..<length where code & (1 << UInt32(bit)) != 0 { reversed |= 1 << UInt32(length - 1 - bit) }
      write(reversed, count: length)
    }

    /// A literal byte in the fixed Huffman code.
    mutating func writeFixedLiteral(_ byte: UInt8) {
      if byte < 144 {
        writeHuffman(0x30 + UInt32(byte), length: 8)
      } else {
        writeHuffman(0x190 + UInt32(byte) - 144, length: 9)
      }
    }

    mutating func appendAlignedBytes(_ byte: UInt8, count: Int) {
      precondition(isAligned)
      bytes.append(contentsOf: repeatElement(byte, count: count))
    }

    mutating func finish() -> Data {
      if used > 0 { write(0, count: 8 - used) }
      return Data(bytes)
    }
  }

  /// CRC-32 (zip's), with zlib's combine so that a gigabyte run is checksummed without being made.
  enum CRC32 {
    static let table: [UInt32] = (0..<256).map { index in
      var value = UInt32(index)
      for _ in 0..<8 { value = value & 1 == 1 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1 }
      return value
    }

    static func checksum(_ bytes: [UInt8]) -> UInt32 {
      var crc: UInt32 = 0xFFFF_FFFF
      for byte in bytes { crc = table[Int((crc ^ UInt32(byte)) & 0xff)] ^ (crc >> 8) }
      return crc ^ 0xFFFF_FFFF
    }

    /// The CRC of `count` copies of `byte`, by doubling.
    static func run(of byte: UInt8, count: Int) -> UInt32 {
      guard count > 0 else { return 0 }
      let one = checksum([byte])
      var crc = one
      var length = 1
      for bit in (0..<(Int.bitWidth - count.leadingZeroBitCount - 1)).reversed() {
        crc = combine(crc, crc, length)
        length *= 2
        if count & (1 << bit) != 0 {
          crc = combine(crc, one, 1)
          length += 1
        }
      }
      return crc
    }

    /// zlib's crc32_combine: the CRC of A then B from CRC(A), CRC(B) and B's length.
    static func combine(_ first: UInt32, _ second: UInt32, _ length: Int) -> UInt32 {
      guard length > 0 else { return first }
      func times(_ matrix: [UInt32], _ vector: UInt32) -> UInt32 {
        var sum: UInt32 = 0
        var vector = vector
        var index = 0
        while vector != 0 {
          if vector & 1 == 1 { sum ^= matrix[index] }
          vector >>= 1
          index += 1
        }
        return sum
      }
      func square(_ matrix: [UInt32]) -> [UInt32] { (0..<32).map { times(matrix, matrix[$0]) } }
      var odd = [UInt32](repeating: 0, count: 32)
      odd[0] = 0xEDB8_8320
      for index in 1..<32 { odd[index] = 1 << UInt32(index - 1) }
      var even = square(odd)
      odd = square(even)
      var crc = first
      var remaining = length
      repeat {
        even = square(odd)
        if remaining & 1 == 1 { crc = times(even, crc) }
        remaining >>= 1
        if remaining == 0 { break }
        odd = square(even)
        if remaining & 1 == 1 { crc = times(odd, crc) }
        remaining >>= 1
      } while remaining != 0
      return crc ^ second
    }
  }
}
