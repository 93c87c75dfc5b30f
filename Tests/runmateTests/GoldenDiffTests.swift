import Foundation
import RunMateTestSupport
import Testing

/// The golden-file diff names the first differing lines with their numbers and a line of context.
@Suite struct GoldenDiffTests {
  @Test func equalTextsHaveNoDifference() {
    #expect(firstDifference("a\nb\n", "a\nb\n") == nil)
  }

  @Test func aChangedLineIsNamedWithItsNumberAndContext() {
    let expected = "week 1\nMon  easy 5 km\nTue  rest\nWed  tempo 6 km\n"
    let actual = "week 1\nMon  easy 5 km\nTue  easy 4 km\nWed  tempo 6 km\n"
    #expect(
      firstDifference(actual, expected) == """
        @@ line 3: expected 1 line(s), got 1 @@
          Mon  easy 5 km
        - Tue  rest
        + Tue  easy 4 km
          Wed  tempo 6 km
        """)
  }

  @Test func linesAddedAtTheEndAreShown() {
    #expect(
      firstDifference("a\nb\nc\n", "a\nb\n") == """
        @@ line 3: expected 0 line(s), got 1 @@
          b
        + c
        \u{20}\u{20}
        """)
  }

  @Test func aMissingFinalNewlineIsNamed() {
    let difference = firstDifference("a\nb", "a\nb\n")
    #expect(difference?.hasPrefix("@@ line 3: expected 1 line(s), got 0 @@") == true, "\(difference ?? "nil")")
  }
}
