// A FIT workout file (file type 5) written from Garmin's published FIT protocol and profile: a 14-byte header with
// its CRC, one definition message and its data messages for `file_id`, `workout` and `workout_step`, little-endian,
// and the file's CRC-16. Read back by ``FITWorkoutFile/decode(_:)`` (and by Garmin's own SDK, see the tests).

/// How long a workout step lasts.
public enum FITStepDuration: Sendable, Hashable {
  /// A time, in milliseconds (the profile's `time` duration: seconds scaled by 1000).
  case milliseconds(UInt32)
  /// A distance, in centimetres (the profile's `distance` duration: metres scaled by 100).
  case centimeters(UInt32)
  /// Until the runner presses lap.
  case open
  /// Repeat the steps from `fromStep` (a message index) to this one until they ran `count` times.
  case repeatSteps(fromStep: UInt16, count: UInt32)
}

/// A workout step's target.
public enum FITStepTarget: Sendable, Hashable {
  /// A speed range, in mm/s (the profile's `custom_target_speed_low/high`: m/s scaled by 1000).
  case speed(lowMillimetersPerSecond: UInt32, highMillimetersPerSecond: UInt32)
  /// A heart-rate range in beats a minute (written as the profile's `custom_target_heart_rate_low/high`: bpm + 100,
  /// since 0 to 100 there mean % of the maximum).
  case heartRate(lowBPM: UInt32, highBPM: UInt32)
  /// No target.
  case open
}

/// A workout step's intensity, the profile's `intensity` values.
public enum FITStepIntensity: UInt8, Sendable, Hashable {
  case active = 0
  case rest = 1
  case warmup = 2
  case cooldown = 3
}

/// One `workout_step` message.
public struct FITWorkoutStep: Sendable, Hashable {
  /// What the watch shows for the step (cut to ``FITWorkoutFile/stepNameBytes`` bytes of UTF-8).
  public var name: String
  /// How long it lasts, or the repeat it closes.
  public var duration: FITStepDuration
  /// Its speed or heart-rate range, or open.
  public var target: FITStepTarget
  /// Nil for a repeat step (the profile leaves it invalid there).
  public var intensity: FITStepIntensity?

  /// A step of these values.
  public init(name: String, duration: FITStepDuration, target: FITStepTarget, intensity: FITStepIntensity?) {
    self.name = name
    self.duration = duration
    self.target = target
    self.intensity = intensity
  }
}

/// A FIT workout file: a running workout with its steps, created at `timeCreated` (FIT seconds since
/// 1989-12-31T00:00:00Z; given, never read from the clock, so the same workout gives the same bytes).
public struct FITWorkoutFile: Sendable, Hashable {
  /// The bytes `wkt_name` holds, its terminating NUL included.
  public static let nameBytes = 32
  /// The bytes `wkt_step_name` holds, its terminating NUL included.
  public static let stepNameBytes = 16
  /// The steps a file may hold (watches take about this many; more is refused by the caller).
  public static let maximumSteps = 100
  /// Seconds from 1970-01-01 to the FIT epoch, 1989-12-31T00:00:00Z.
  public static let epochOffset: Int64 = 631_065_600

  /// `wkt_name` (cut to ``nameBytes`` bytes of UTF-8).
  public var name: String
  /// `file_id.time_created`, FIT seconds.
  public var timeCreated: UInt32
  /// The `file_id.serial_number` (non-zero: 0 is uint32z's invalid value).
  public var serialNumber: UInt32
  /// The `workout_step` messages, in order (their message indexes).
  public var steps: [FITWorkoutStep]

  /// A workout file of these values.
  public init(name: String, timeCreated: UInt32, serialNumber: UInt32, steps: [FITWorkoutStep]) {
    self.name = name
    self.timeCreated = timeCreated
    self.serialNumber = serialNumber
    self.steps = steps
  }

  // Profile numbers (Profile.xlsx, "Messages" and "Types").
  static let fileIDMessage: UInt16 = 0
  static let workoutMessage: UInt16 = 26
  static let workoutStepMessage: UInt16 = 27
  static let fileTypeWorkout: UInt8 = 5
  static let manufacturerDevelopment: UInt16 = 255
  static let sportRunning: UInt8 = 1

  /// The file's bytes.
  public func encoded() -> [UInt8] {
    var data = FITBytes()
    // file_id: type (enum), manufacturer (uint16), product (uint16), serial_number (uint32z), time_created (uint32).
    data.definition(
      local: 0, global: Self.fileIDMessage,
      fields: [(0, 1, 0x00), (1, 2, 0x84), (2, 2, 0x84), (3, 4, 0x8C), (4, 4, 0x86)])
    data.record(local: 0)
    data.u8(Self.fileTypeWorkout)
    data.u16(Self.manufacturerDevelopment)
    data.u16(0)
    data.u32(serialNumber)
    data.u32(timeCreated)
    // workout: wkt_name (string), sport (enum), num_valid_steps (uint16).
    data.definition(
      local: 1, global: Self.workoutMessage,
      fields: [(8, UInt8(Self.nameBytes), 0x07), (4, 1, 0x00), (6, 2, 0x84)])
    data.record(local: 1)
    data.string(name, size: Self.nameBytes)
    data.u8(Self.sportRunning)
    data.u16(UInt16(clamping: steps.count))
    // workout_step: message_index (uint16), wkt_step_name (string), duration_type (enum), duration_value (uint32),
    // target_type (enum), target_value (uint32), custom_target_value_low/high (uint32), intensity (enum).
    data.definition(
      local: 2, global: Self.workoutStepMessage,
      fields: [
        (254, 2, 0x84), (0, UInt8(Self.stepNameBytes), 0x07), (1, 1, 0x00), (2, 4, 0x86), (3, 1, 0x00),
        (4, 4, 0x86), (5, 4, 0x86), (6, 4, 0x86), (7, 1, 0x00),
      ])
    for (index, step) in steps.enumerated() {
      data.record(local: 2)
      data.u16(UInt16(clamping: index))
      data.string(step.name, size: Self.stepNameBytes)
      let (durationType, durationValue): (UInt8, UInt32) =
        switch step.duration {
        case .milliseconds(let value): (0, value)
        case .centimeters(let value): (1, value)
        case .open: (5, 0xFFFF_FFFF)
        case .repeatSteps(let from, _): (6, UInt32(from))
        }
      data.u8(durationType)
      data.u32(durationValue)
      if case .repeatSteps(_, let count) = step.duration {
        data.u8(0xFF)
        data.u32(count)
        data.u32(0xFFFF_FFFF)
        data.u32(0xFFFF_FFFF)
      } else {
        switch step.target {
        case .speed(let low, let high):
          data.u8(0)
          data.u32(0)
          data.u32(low)
          data.u32(high)
        case .heartRate(let low, let high):
          data.u8(1)
          data.u32(0)
          data.u32(low + 100)
          data.u32(high + 100)
        case .open:
          data.u8(2)
          data.u32(0xFFFF_FFFF)
          data.u32(0xFFFF_FFFF)
          data.u32(0xFFFF_FFFF)
        }
      }
      data.u8(step.intensity?.rawValue ?? 0xFF)
    }
    return data.file()
  }

  /// `text` cut to at most `bytes - 1` bytes of UTF-8 at a character boundary (the field keeps its NUL).
  public static func fitting(_ text: String, bytes: Int) -> String {
    var result = ""
    var used = 0
    for character in text {
      let size = String(character).utf8.count
      guard used + size <= bytes - 1 else { break }
      result.append(character)
      used += size
    }
    return result
  }
}

/// The bytes of the messages, then the file around them.
private struct FITBytes {
  var bytes: [UInt8] = []

  mutating func u8(_ value: UInt8) { bytes.append(value) }
  mutating func u16(_ value: UInt16) { bytes += [UInt8(value & 0xFF), UInt8(value >> 8)] }
  mutating func u32(_ value: UInt32) {
    bytes += [0, 8, 16, 24].map { UInt8(truncatingIfNeeded: value >> UInt32($0)) }
  }

  /// `text` as UTF-8 padded with NULs to `size` bytes (its end cut at a character boundary).
  mutating func string(_ text: String, size: Int) {
    let utf8 = Array(FITWorkoutFile.fitting(text, bytes: size).utf8)
    bytes += utf8 + [UInt8](repeating: 0, count: size - utf8.count)
  }

  /// A normal header for a data message of `local` type.
  mutating func record(local: UInt8) { bytes.append(local & 0x0F) }

  /// A definition message: little-endian, `fields` as (number, size, base type byte).
  mutating func definition(local: UInt8, global: UInt16, fields: [(UInt8, UInt8, UInt8)]) {
    bytes.append(0x40 | (local & 0x0F))
    bytes += [0, 0]  // reserved, architecture 0 (little-endian)
    u16(global)
    bytes.append(UInt8(fields.count))
    for (number, size, base) in fields { bytes += [number, size, base] }
  }

  /// The 14-byte header (protocol 2.0, profile 21.40, its CRC), the messages and the file's CRC.
  func file() -> [UInt8] {
    var header = FITBytes()
    header.u8(14)
    header.u8(0x20)
    header.u16(2140)
    header.u32(UInt32(bytes.count))
    header.bytes += Array(".FIT".utf8)
    header.u16(crc(header.bytes))
    var file = header.bytes + bytes
    var tail = FITBytes()
    tail.u16(crc(file))
    file += tail.bytes
    return file
  }

  private func crc(_ bytes: [UInt8]) -> UInt16 {
    bytes.withUnsafeBytes { raw in raw.baseAddress.map { FITCRC.update(0, $0, count: raw.count) } ?? 0 }
  }
}
