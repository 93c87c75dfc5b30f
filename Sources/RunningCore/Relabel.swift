extension DistanceUnit {
  /// `text` with every distance and pace written in the other unit rewritten in this one, through the one formatter:
  /// `Easy 7 km` → `Easy 4.3 mi`, `20–24.7 km` → `12.4–15.3 mi`, `5:40-6:10/km` → `9:07-9:55/mi`. Metres (`400 m`),
  /// race names (`10K`) and times stay as they are; repetitions in km keep their track distance in metres
  /// (`3 × 1 km` → `3 × 1000 m`).
  ///
  /// Titles and descriptions of a saved plan are written in the unit the plan was made in; this shows them in the
  /// runner's. `exact` holds the distances (km) the text is known to round, such as the workout's own distance:
  /// a number that is one of them as written is converted from the exact value, so `Easy 7 km` for a 7.04 km run
  /// reads `4.4 mi`, as the run's distance column does.
  public func relabel(_ text: String, exact: [Double] = []) -> String {
    let other: DistanceUnit = self == .km ? .mi : .km
    guard text.contains(other.rawValue) else { return text }
    let characters = Array(text)
    var output = ""
    var index = 0
    while index < characters.count {
      if startsNumber(characters, at: index),
        let (replacement, end) = converted(characters, from: index, source: other, exact: exact)
      {
        output += replacement
        index = end
      } else {
        output.append(characters[index])
        index += 1
      }
    }
    return output
  }

  /// True when a number starts at `index` (a digit not inside a longer word or number).
  private func startsNumber(_ characters: [Character], at index: Int) -> Bool {
    guard characters[index].isASCII, characters[index].isNumber else { return false }
    guard index > 0 else { return true }
    let before = characters[index - 1]
    return !(before.isLetter || before.isNumber || before == "." || before == ":" || before == "–" || before == "-")
  }

  /// The number (or range, or pace) starting at `start` rewritten from `source` in this unit, and the index after
  /// it; nil when it is not a distance or pace in `source`.
  private func converted(
    _ characters: [Character], from start: Int, source: DistanceUnit, exact: [Double]
  ) -> (String, Int)? {
    var index = start
    func digits() -> String? {
      let first = index
      while index < characters.count, characters[index].isASCII,
        characters[index].isNumber
          || (characters[index] == "." && index + 1 < characters.count
            && characters[index + 1].isNumber)
      {
        index += 1
      }
      return index > first ? String(characters[first..<index]) : nil
    }
    func clock() -> Double? {
      guard let minutes = digits(), index + 2 < characters.count, characters[index] == ":" else { return nil }
      index += 1
      guard let seconds = digits(), seconds.count == 2, let m = Double(minutes), let s = Double(seconds) else {
        return nil
      }
      return m * 60 + s
    }
    func unitFollows(_ separator: String) -> Bool {
      let word = Array(separator + source.rawValue)
      guard index + word.count <= characters.count, Array(characters[index..<index + word.count]) == word else {
        return false
      }
      let after = index + word.count
      guard after == characters.count || !(characters[after].isLetter || characters[after].isNumber) else {
        return false
      }
      index = after
      return true
    }
    // A pace or pace range: `5:40/km`, `5:40-6:10/km`.
    if let fast = clock() {
      var paces = [fast]
      if index < characters.count, characters[index] == "-" {
        index += 1
        guard let slow = clock() else { return nil }
        paces.append(slow)
      }
      guard unitFollows("/") else { return nil }
      let text = paces.map { RunDuration.minutesSeconds($0 / source.kilometers * kilometers) }
      return (text.joined(separator: "-") + "/" + rawValue, index)
    }
    index = start
    // A distance or distance range: `7 km`, `20–24.7 km`.
    guard let first = digits() else { return nil }
    var numbers = [first]
    var dash: Character?
    if index + 1 < characters.count, characters[index] == "–" || characters[index] == "-",
      characters[index + 1].isASCII, characters[index + 1].isNumber
    {
      dash = characters[index]
      index += 1
      guard let second = digits() else { return nil }
      numbers.append(second)
    }
    guard unitFollows(" ") else { return nil }
    // Repetitions keep their track distance, in metres: `5 × 1 km` → `5 × 1000 m`, as a track and a watch lap them.
    if source == .km, numbers.count == 1, start >= 2, characters[start - 2] == "×", characters[start - 1] == " ",
      let km = Double(first)
    {
      return ("\(Int((km * 1_000).rounded())) m", index)
    }
    let values = numbers.map { written -> String in
      let km =
        exact.first { source.number($0) == written } ?? (Double(written) ?? 0) * source.kilometers
      return number(km)
    }
    return (values.joined(separator: dash.map(String.init) ?? "") + " " + rawValue, index)
  }
}
