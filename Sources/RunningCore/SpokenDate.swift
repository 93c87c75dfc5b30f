/// Days as people say them (`today`, `next sunday`, `in 3 weeks`), read from a given today: no clock is read here.
///
/// The weekday rules are GNU `date -d`'s (coreutils' parse-datetime), the reference on the systems runmate runs on:
///
/// | Words | The day | Seen from Friday 2027-01-08 |
/// | --- | --- | --- |
/// | `today`, `tomorrow`, `yesterday` | today, the day after, the day before | 01-08, 01-09, 01-07 |
/// | `sunday`, `this sunday`, `sun` | the first Sunday on or after today | 01-10 |
/// | `next sunday` | the first Sunday after today (a week on when today is a Sunday) | 01-10 |
/// | `next friday` | (today is a Friday) | 01-15 |
/// | `last monday` | the last Monday before today | 01-04 |
/// | `in 3 weeks`, `in 10 days`, `in a week` | today plus that many days or weeks | 01-29, 01-18, 01-15 |
/// | `in 2 months` | the same day of the month, two months on (the month's last day when it has none) | 03-08 |
/// | `2 days ago`, `a week ago` | today minus that many days or weeks | 01-06, 01-01 |
///
/// ISO dates (`2027-03-14`) mean themselves. Words are case-blind; numbers may be digits or `a`, `one` … `twelve`.
public enum SpokenDate {
  /// What may be written, for messages.
  public static let allowed =
    "a date YYYY-MM-DD, or today, tomorrow, yesterday, a weekday (sunday, next sunday, last monday), "
    + "in 3 weeks, 2 days ago"

  /// The day `text` names seen from `today`, or nil when it names none.
  public static func day(_ text: String, today: CivilDate) -> CivilDate? {
    let words = text.lowercased().split(whereSeparator: { $0 == " " || $0 == "\t" }).map(String.init)
    if words.count == 1, let date = CivilDate(iso: words[0]) { return date }
    switch words.count {
    case 1:
      switch words[0] {
      case "today": return today
      case "tomorrow": return today.adding(days: 1)
      case "yesterday": return today.adding(days: -1)
      default: return weekday(words[0]).map { today.adding(days: daysAhead(from: today, to: $0)) }
      }
    case 2:
      guard let day = weekday(words[1]) else { return nil }
      let ahead = daysAhead(from: today, to: day)
      switch words[0] {
      case "this": return today.adding(days: ahead)
      case "next": return today.adding(days: ahead == 0 ? 7 : ahead)
      case "last": return today.adding(days: ahead == 0 ? -7 : ahead - 7)
      default: return nil
      }
    case 3:
      if words[0] == "in", let count = number(words[1]) { return shifted(today, by: count, words[2]) }
      if words[2] == "ago", let count = number(words[0]) { return shifted(today, by: -count, words[1]) }
      return nil
    default:
      return nil
    }
  }

  /// Whether `text` is a lone weekday (`friday`, `this friday`): in a range, such a last day is read from the
  /// range's first day (`monday..friday` is one working week).
  public static func isWeekdayName(_ text: String) -> Bool {
    let words = text.lowercased().split(separator: " ").map(String.init)
    return (words.count == 1 && weekday(words[0]) != nil)
      || (words.count == 2 && words[0] == "this" && weekday(words[1]) != nil)
  }

  /// The words a day is said with, each typo corrected, when the corrected text names a day: `nxt sunday` gives
  /// `next sunday`, `tomorow` gives `tomorrow`; nil when nothing close names one.
  public static func suggestion(for text: String, today: CivilDate) -> String? {
    let words = text.lowercased().split(separator: " ").map(String.init)
    guard (1...3).contains(words.count) else { return nil }
    let corrected = words.map { word in
      number(word) != nil || vocabulary.contains(word) ? word : closestName(to: word, among: vocabulary) ?? word
    }.joined(separator: " ")
    guard corrected != text.lowercased(), day(corrected, today: today) != nil else { return nil }
    return corrected
  }

  /// Every word of the forms above, for typo suggestions.
  static let vocabulary =
    ["today", "tomorrow", "yesterday", "this", "next", "last", "in", "ago", "day", "days", "week", "weeks"]
    + ["month", "months"] + weekdayNames

  /// `monday` for ``Weekday/monday``.
  public static func weekdayName(_ day: Weekday) -> String { weekdayNames[day.index] }

  static let weekdayNames = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]

  /// `sunday`, `sun`, `Sunday`, `tues`: a full name or a prefix of one of three letters or more.
  static func weekday(_ word: String) -> Weekday? {
    guard word.count >= 3, let index = weekdayNames.firstIndex(where: { $0.hasPrefix(word) }) else { return nil }
    return Weekday.allCases[index]
  }

  /// 0 to 6: days from `today` to the next `day` on or after it.
  static func daysAhead(from today: CivilDate, to day: Weekday) -> Int {
    (day.index - today.weekday.index + 7) % 7
  }

  /// `3`, `a`, `one` … `twelve`: 0 to 999.
  static func number(_ word: String) -> Int? {
    let words = [
      "a", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve",
    ]
    if word == "an" { return 1 }
    if let index = words.firstIndex(of: word) { return max(1, index) }
    guard word.count <= 3, word.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
    return Int(word)
  }

  /// `today` moved by `count` days, weeks or months (a month keeps the day of the month, or takes the month's last).
  static func shifted(_ today: CivilDate, by count: Int, _ unit: String) -> CivilDate? {
    switch unit {
    case "day", "days": return today.adding(days: count)
    case "week", "weeks": return today.adding(days: 7 * count)
    case "month", "months":
      let months = today.year * 12 + today.month - 1 + count
      let year = months / 12
      let month = months % 12 + 1
      return CivilDate(year: year, month: month, day: min(today.day, CivilDate.daysInMonth(year: year, month: month)))
    default: return nil
    }
  }
}
