#!/usr/bin/env bash
# Fetches the corpus files that may not be committed (GPL projects) into Tests/Corpus/fetched/, pinned by commit and
# checked by SHA-256; CorpusTests.fetchedFileImportsAsTheReferenceSays runs on them when present. Their expected
# outcomes are in Tests/Corpus/fetched-manifest.tsv (scripts/corpus-reference.py).
set -euo pipefail
cd "$(dirname "$0")/.."
dest=Tests/Corpus/fetched
# folder  repo  commit  path  sha256   (licences: pytrainer is GPL-2.0; Runalyze names none, so all rights reserved)
files=(
  "pytrainer pytrainer/pytrainer e5603ddadfd8b74e13effd5906eab9d703b6ca5a pytrainer/test/imports/sample.fit c8595afab6c117e07b2cc956417f92a11934609b5e565defde1b67118c07cd2a"
  "pytrainer pytrainer/pytrainer e5603ddadfd8b74e13effd5906eab9d703b6ca5a pytrainer/test/imports/sample.tcx 17c4ee27ef74cd6475c7df6cb76684c17f375de198feda0127d6e42050b8b82a"
  "pytrainer pytrainer/pytrainer e5603ddadfd8b74e13effd5906eab9d703b6ca5a pytrainer/test/lib/gpxplus_sample.gpx 65bb30fb2b122db59bcf8ebb218db71fed1cf7a6605a97c0871afcbfd218df68"
  "pytrainer pytrainer/pytrainer e5603ddadfd8b74e13effd5906eab9d703b6ca5a pytrainer/test/lib/gpxplus_sample_old.gpx 69b87b9b7a7450c4700751dcbb68a6425f429c4a090dbf3154666178b62dfeb5"
  "runalyze Runalyze/Runalyze 5669237a78c7d3512df969052fd0d97e5dca6820 tests/testfiles/gpx/Movescount-mixed-extensions.gpx 3738fc38da72b3a1a8c51b53358811352e46aa14d44582855a7dd367a4c032a0"
  "runalyze Runalyze/Runalyze 5669237a78c7d3512df969052fd0d97e5dca6820 tests/testfiles/gpx/NavRun500.gpx a1359aca85c326ab70cf5550dd8247bc3fdd8dbe590edfc5738ed83b45b92911"
  "runalyze Runalyze/Runalyze 5669237a78c7d3512df969052fd0d97e5dca6820 tests/testfiles/gpx/Route-only.gpx 1f288e3c1765facf3cecdab22c997707893ff7ff3b99cd837b632900a16c168d"
  "runalyze Runalyze/Runalyze 5669237a78c7d3512df969052fd0d97e5dca6820 tests/testfiles/gpx/SpoQ-2.gpx d8ef47e0b8226d5a3d7fa5f7145fb722d3389f268a56d0b5ade52534413c61e8"
  "runalyze Runalyze/Runalyze 5669237a78c7d3512df969052fd0d97e5dca6820 tests/testfiles/gpx/SpoQ.gpx 34889ecd5413fd03f6ee8d9e301a5331dfec6fda790ffdfcbbc04d1ad594eb80"
  "runalyze Runalyze/Runalyze 5669237a78c7d3512df969052fd0d97e5dca6820 tests/testfiles/gpx/break-between-trkseg.gpx 6408d1e5fac2dee34345d2d71f69c1bd8f1e6196fe64f7ed682abff6918a0b53"
  "runalyze Runalyze/Runalyze 5669237a78c7d3512df969052fd0d97e5dca6820 tests/testfiles/gpx/garmin-ns3-extension.gpx b9634e255f142d1b8f27649fb9a5e64beb3f134e46be188d95521a1bb8203cf2"
  "runalyze Runalyze/Runalyze 5669237a78c7d3512df969052fd0d97e5dca6820 tests/testfiles/gpx/hr-not-always-there.gpx 11f71a3744dce78c94bd7b515c2e77aff75679b5d94a00b7a47b89bfdec0b9d2"
  "runalyze Runalyze/Runalyze 5669237a78c7d3512df969052fd0d97e5dca6820 tests/testfiles/gpx/runkeeper-negative-time-step-at-start.gpx 2a3e33ca612e411cf1f4d4dfbc7301e0256fa39509ed8268548e7a4150dcb610"
  "runalyze Runalyze/Runalyze 5669237a78c7d3512df969052fd0d97e5dca6820 tests/testfiles/gpx/standard.gpx 286936da87e5842bd71ba76691d57c43a282775c5ee9b4f920acdc6713f2464d"
  "runalyze Runalyze/Runalyze 5669237a78c7d3512df969052fd0d97e5dca6820 tests/testfiles/gpx/strava-export.gpx b3b3ab0a70958c41cc6ac6018016cb97ef5e18f201bee0daf0b1585228ace0b1"
  "runalyze Runalyze/Runalyze 5669237a78c7d3512df969052fd0d97e5dca6820 tests/testfiles/hrm/12010401.gpx ae4977bb7419737920396dec445c2f0b3007e139d0fab4619359f006933c6506"
  "runalyze Runalyze/Runalyze 5669237a78c7d3512df969052fd0d97e5dca6820 tests/testfiles/hrm/12010601.gpx c2a720d15fb4d7cc4955f186ac7ca0933c3479bd4cc5d899d7f5082cb7ffcd7b"
  "runalyze Runalyze/Runalyze 5669237a78c7d3512df969052fd0d97e5dca6820 tests/testfiles/hrm/12011601.gpx fd1eb37e6e91cdb656e9dd2b31837ca7d8f914d221c969358e4d0f1adabb23b1"
  "runalyze Runalyze/Runalyze 5669237a78c7d3512df969052fd0d97e5dca6820 tests/testfiles/hrm/15031201.gpx f941dac947b8e869cd2a25bb6ecb7934ab9455ae9aaa5b154f587a5cc52de572"
  "runalyze Runalyze/Runalyze 5669237a78c7d3512df969052fd0d97e5dca6820 tests/testfiles/hrm/15031801.gpx 36724532f018908f980a40f2295cb70a16672d7f551016ba08b93e29a50cb818"
  "runalyze Runalyze/Runalyze 5669237a78c7d3512df969052fd0d97e5dca6820 tests/testfiles/tcx/Could-Not-Be-Read_by-Florian.tcx ae830a8aa14a7204d666c366ef373cb3ba27a127c2707528764dfe4c011f65eb"
  "runalyze Runalyze/Runalyze 5669237a78c7d3512df969052fd0d97e5dca6820 tests/testfiles/tcx/Dakota.tcx cefcb9f7e0e2ee2707d3e7250237285ff19bb0963f03955230fd793d03a5a36e"
  "runalyze Runalyze/Runalyze 5669237a78c7d3512df969052fd0d97e5dca6820 tests/testfiles/tcx/First-point-empty.tcx a6956f5f780dd0796977cf1b9752885948766ad276e70e2190affd4848a98b5c"
  "runalyze Runalyze/Runalyze 5669237a78c7d3512df969052fd0d97e5dca6820 tests/testfiles/tcx/Indoor-Training.tcx 14af91c3c9aa48706f954c3419d99b63fb9d96fa650092a2c9cd77ef0883e2a6"
  "runalyze Runalyze/Runalyze 5669237a78c7d3512df969052fd0d97e5dca6820 tests/testfiles/tcx/Multiple-Trainings.tcx 7dfd3bb87c8b887afef5b3fd38224bdce0e4abcf045d08cc821d3bba074694f6"
  "runalyze Runalyze/Runalyze 5669237a78c7d3512df969052fd0d97e5dca6820 tests/testfiles/tcx/Multisport.tcx 065479dcb67b39fb270c9948586f522812be8b2b0a57b8587bcd75d5f12185db"
  "runalyze Runalyze/Runalyze 5669237a78c7d3512df969052fd0d97e5dca6820 tests/testfiles/tcx/Polar-one-lap-indoor-with-distance.tcx 7554ee6d26a669e8760e2153210399bec58c04968287da55b53eb0684a73d783"
  "runalyze Runalyze/Runalyze 5669237a78c7d3512df969052fd0d97e5dca6820 tests/testfiles/tcx/Power-ns2-extension.tcx dcbbcee603b79c30859ef1263c457c705c2d1d5e1dbe3c26877e6c88a0bebcfb"
  "runalyze Runalyze/Runalyze 5669237a78c7d3512df969052fd0d97e5dca6820 tests/testfiles/tcx/Route-only.tcx 383af51864a4c223728253c0548acf0ab1f7173083c3db95b6d14591511aff32"
  "runalyze Runalyze/Runalyze 5669237a78c7d3512df969052fd0d97e5dca6820 tests/testfiles/tcx/Runtastic.tcx e934d41172f21df555fc879018f6b0c197b489952a7992dca67aa5edaac378f9"
  "runalyze Runalyze/Runalyze 5669237a78c7d3512df969052fd0d97e5dca6820 tests/testfiles/tcx/Standard.tcx f0233d3df90b3dfa5a2fd20f9162ab25eb57021479d42a813ac99501bffe9f9a"
  "runalyze Runalyze/Runalyze 5669237a78c7d3512df969052fd0d97e5dca6820 tests/testfiles/tcx/Swim-without-time_by-Timekiller.tcx 78043365e2b2492e1c85ff7f9b195c0fcde85a1020e2c7949b180a5d034d3a63"
  "runalyze Runalyze/Runalyze 5669237a78c7d3512df969052fd0d97e5dca6820 tests/testfiles/tcx/Treadmill-doubled-cadence.tcx 888e84fb37e179a0bdeb4b6aa52c56afa7a14440419229cead08729d51cd6b62"
  "runalyze Runalyze/Runalyze 5669237a78c7d3512df969052fd0d97e5dca6820 tests/testfiles/tcx/Wrong-time-zone-by-polar.tcx 5f44a53e3363ccc118b6724be461ec820e32e4827ff224bed0830d0c77eb1458"
  "runalyze Runalyze/Runalyze 5669237a78c7d3512df969052fd0d97e5dca6820 tests/testfiles/tcx/missing-distances.tcx c5efb7f85995edecdb3b3f776b96d299dfcae884c1aa4efb3204aa7364cfce85"
  "runalyze Runalyze/Runalyze 5669237a78c7d3512df969052fd0d97e5dca6820 tests/testfiles/tcx/negative-pause.tcx e62ad2d67543cf4ef2587d7e7417a468eae69b55bacc9ba1ad5ea2d6e1d92509"
  "runalyze Runalyze/Runalyze 5669237a78c7d3512df969052fd0d97e5dca6820 tests/testfiles/tcx/watt-extension-without-namespace.tcx 0c5a402bd7fedd0b3f0ebf74d2f99591a53e5319ca854304a0787e21d7fb1b37"
)
for line in "${files[@]}"; do
  read -r folder repo commit path sha <<<"$line"
  mkdir -p "$dest/$folder"
  out="$dest/$folder/$(basename "$path")"
  if [ ! -f "$out" ] || ! echo "$sha  $out" | sha256sum -c --quiet - 2>/dev/null; then
    curl -fsSL "https://raw.githubusercontent.com/$repo/$commit/$path" -o "$out.part"
    echo "$sha  $out.part" | sha256sum -c --quiet - || { echo "fetch-corpus: $path: checksum differs" >&2; rm -f "$out.part"; exit 1; }
    mv "$out.part" "$out"
  fi
done
echo "fetch-corpus: ${#files[@]} files in $dest"
