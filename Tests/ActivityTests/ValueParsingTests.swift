import Testing

@testable import Activity

/// The plain-decimal fast path gives exactly what the standard library's (strtod's) correctly rounded parse gives.
struct ValueParsingTests {
  @Test func plainDecimalsAreReadExactlyAsStrtodReadsThem() {
    var generator = SplitMix64(seed: 0x5EED)
    for _ in 0..<20_000 {
      let significant = Int(generator.next() % 15) + 1
      var digits = ""
      for _ in 0..<significant { digits += String(generator.next() % 10) }
      let decimals = Int(generator.next() % UInt64(significant + 1))
      var text = decimals == 0 ? digits : String(digits.dropLast(decimals)) + "." + String(digits.suffix(decimals))
      if text.hasPrefix(".") { text = "0" + text }
      if generator.next() % 2 == 0 { text = "-" + text }
      let expected = Double(text)
      #expect(ValueParsing.number(text) == expected, "\(text)")
    }
    for text in ["1.", ".5", "-0", "+3.25", "0.1", "1e3", "52.349857000000000000001", "12345678901234567890"] {
      #expect(ValueParsing.number(text) == Double(text), "\(text)")
    }
    for text in [".", "-", "1.2.3", "nan", "inf", "0x1p3", ""] {
      #expect(ValueParsing.number(text) == nil, "\(text)")
    }
  }
}

/// A small deterministic generator (SplitMix64), so a failure names an input that reproduces.
private struct SplitMix64 {
  var state: UInt64

  init(seed: UInt64) { state = seed }

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
