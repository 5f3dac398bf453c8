"""Catalogue of the raw files: canonical URL, content digest and mirror digest.

``sha256`` is the digest of the normalised content (see
:mod:`mkbench.harness.datasets._fetch`), computed from the verified mirror copies;
``mirror_sha256`` is the exact-bytes digest of the mirror copy (the mirror's
``MANIFEST.tsv``). Where a canonical download was checked against a digest
published independently of the mirror, the comment says so; elsewhere the
canonical file is believed, not proven, to normalise to the same content.
Files with ``sha256=None`` have no digest knowable offline and are trusted on
first use.
"""

from __future__ import annotations

from ._registry import RawFile

UCI = "https://archive.ics.uci.edu/ml/machine-learning-databases"
LECUN = "http://yann.lecun.com/exdb/mnist"
RAETSCH_REPO = "https://github.com/tdiethe/gunnar_raetsch_benchmark_datasets"


def _uci(path: str, remote: str, sha256: str | None, mirror_sha256: str | None, **kwargs) -> RawFile:
    return RawFile(path, f"{UCI}/{remote}", sha256, mirror_sha256, **kwargs)


# ---------------------------------------------------------------- vision
# The mirror's .gz files are re-compressed; their decompressed bytes are LeCun's
# originals (md5-verified, see MANIFEST), so the content digests hold for his .gz too.
MNIST_TRAIN_IMAGES = RawFile(
    "mnist/train-images-idx3-ubyte.gz", f"{LECUN}/train-images-idx3-ubyte.gz",
    "ba891046e6505d7aadcbbe25680a0738ad16aec93bde7f9b65e87a2fc25776db",
    "0b367032e93c5d0cea0925647cfdb18614af8ee15f83e6f2fc2ad904a6835971", text=False,
)  # fmt: skip
MNIST_TRAIN_LABELS = RawFile(
    "mnist/train-labels-idx1-ubyte.gz", f"{LECUN}/train-labels-idx1-ubyte.gz",
    "65a50cbbf4e906d70832878ad85ccda5333a97f0f4c3dd2ef09a8a9eef7101c5",
    "1787548bbe0bff1ec2ecdc0ef292b02df999e2d1a6002d27500982c652b17203", text=False,
)  # fmt: skip
MNIST_TEST_IMAGES = RawFile(
    "mnist/t10k-images-idx3-ubyte.gz", f"{LECUN}/t10k-images-idx3-ubyte.gz",
    "0fa7898d509279e482958e8ce81c8e77db3f2f8254e26661ceb7762c4d494ce7",
    "1a1a05eab793c14bb050b398624a11b0ffd1a2953baed553b1b9bd079e2a20be", text=False,
)  # fmt: skip
MNIST_TEST_LABELS = RawFile(
    "mnist/t10k-labels-idx1-ubyte.gz", f"{LECUN}/t10k-labels-idx1-ubyte.gz",
    "ff7bcfd416de33731a308c3f266cc351222c34898ecbeaf847f06e48f7ec33f2",
    "b91679a0acfe4ba0e50a2437a903084cba1f5f92592b016a25a7dfd00455798b", text=False,
)  # fmt: skip
MNIST_FILES = (MNIST_TRAIN_IMAGES, MNIST_TRAIN_LABELS, MNIST_TEST_IMAGES, MNIST_TEST_LABELS)

# The HDF5 layout of the Kaggle "usps-dataset" exists only in the mirror; the
# canonical source is ESL's zip.train.gz / zip.test.gz (fallback, trusted on first use).
USPS_H5 = RawFile(
    "usps/usps.h5", None,
    "734f88c541104a956d88be2c95d03b4a463ffd74ccc2ba9c80841fb98e3fcb36",
    "734f88c541104a956d88be2c95d03b4a463ffd74ccc2ba9c80841fb98e3fcb36", text=False,
)  # fmt: skip
ESL = "https://hastie.su.domains/ElemStatLearn/datasets"
USPS_ESL_TRAIN = RawFile("usps/zip.train.gz", f"{ESL}/zip.train.gz", None)
USPS_ESL_TEST = RawFile("usps/zip.test.gz", f"{ESL}/zip.test.gz", None)

# ---------------------------------------------------------------- regression
# housing, abalone: exact bytes equal the UCI file (sha256 published independently).
HOUSING = _uci(
    "uci/housing/housing.data", "housing/housing.data",
    "e3e36f7b9e5435f9eb8320e106aebad00031fefa3064527da0c71dec59e49b76",
    "baadf72995725d76efe787b664e1f083388c79ba21ef9a7990d87f774184735a",
)  # fmt: skip
ABALONE = _uci(
    "uci/abalone/abalone.data", "abalone/abalone.data",
    "eb2de13be807e9bb9ec4128b9c89b98ab23d7739121cfd17b7dde69b46ba7bf6",
    "de37cdcdcaaa50c309d514f248f7c2302a5f1f88c168905eba23fe2fbc78449f",
)  # fmt: skip
# Torgo's house_8L ARFF (gzipped) exists only in the mirror; OpenML's download
# (data set 218) names the target "price" instead of "class", so it is a fallback
# trusted on first use.
HOUSE_8L = RawFile(
    "uci/house_8L/house_8L.arff.gz", None,
    "eeef374e263fb76a336f0f2a231f8696d058a0b1ab93935d2724a92cb4dfb912",
    "a391cf662381ed09100b08ed6ffe239f2ef153682210e6cf9bbff62951ce2a86",
)  # fmt: skip
HOUSE_8L_OPENML = RawFile(
    "uci/house_8L/dataset_2204_house_8L.arff",
    "https://www.openml.org/data/download/3655/dataset_2204_house_8L.arff",
    None,
)
# Not mirrored; the DELVE archive's digest and exact layout are unknown offline.
DELVE_CENSUS_HOUSE = RawFile(
    "delve/census-house/census-house.tar.gz",
    "https://www.cs.toronto.edu/~delve/data/census-house/census-house.tar.gz",
    None, text=False,
)  # fmt: skip

# ---------------------------------------------------------------- binary
# spambase: UCI's file has CRLF line ends; normalised it equals the mirror
# (checked against the independently published sha256 of the UCI file).
SPAMBASE = _uci(
    "uci/spambase/spambase.data", "spambase/spambase.data",
    "6a9d51b4f1a6eea709779499090c38b877e177b71369797a2e939308e737cbbd",
    "ebec58cfca94ea61c77df632314acae15bad410f4769d38b1a66cb41050e3431",
)  # fmt: skip
IONOSPHERE = _uci(  # exact bytes equal the UCI file
    "uci/ionosphere/ionosphere.data", "ionosphere/ionosphere.data",
    "fd6dd7864b55d56dac0a1e6e24af9ccc35bf2555ac79af8ab9f3d1daa065ab83",
    "46d52186b84e20be52918adb93e8fb9926b34795ff7504c24350ae0616a04bbd",
)  # fmt: skip
SONAR = _uci(  # exact bytes equal the UCI file
    "uci/sonar/sonar.all-data", "undocumented/connectionist-bench/sonar/sonar.all-data",
    "3079c09b5d2789a0f96aff82c28e5164fafe2495c5f8da96c6c256c1bd25763f",
    "e90434cdbf00fcf93ffa911fe447ae25606979658e60f1d32e155c3b5240234d",
)  # fmt: skip
# The mirror copy writes missing values as "N/A" where UCI's crx.data has "?"
# (67 cells; MANIFEST says "?"). The rewrite maps it back; the digest was
# checked against UCI's crx.data (sha256 fff49bc1... published independently).
CRX = _uci(
    "uci/credit-approval/crx.data", "credit-screening/crx.data",
    "6f31a44ceea8bb98af5059310d4bb517c5206212754ffcbcbe74570f86bbfa77",
    "5fbf6be7a9e6add05b1e7e24c56453e1908faff243838d8cc982857d3eac1252",
    rewrite=((rb"N/A", b"?"),),
)  # fmt: skip

# ---------------------------------------------------------------- multiclass
GLASS = _uci(  # exact bytes equal the UCI file
    "uci/glass/glass.data", "glass/glass.data",
    "e760b625312601515aa93ec8681e2f0f7e7f82fb91a24b57e66b1c4074dac535",
    "dd67373f4baf2807345df02cbfef2093d342e61ad0d82a4fb79af43ef8ce449d",
)  # fmt: skip
_VEHICLE_DIGESTS = {
    "xaa": ("d428a50904da6149c97b1552c71b8eca28a55091f6a5bbec14c25c81f26c1103",
            "7fd869de06e71e027cfd8d2a4720d0e3cbead77fef5a8a1d81fa628bb61d6d2d"),
    "xab": ("efc4a74dcf1bcc578cecc62808eb87633758d4850a2ded1eb777f91d80c295dc",
            "eb9b39becd4d0c4e77e2a5d47732d83960b6418243eac39da261a290178ee0f7"),
    "xac": ("9f809137e599b3e82029009e897bc5cf661c6126bca88042960b77ad78435cd9",
            "4975a47f907d7dab052518f5aceefab03c9eb50d52b108e7641bc7bf2982ed06"),
    "xad": ("15bfcfa74f4798ea4959fb486e4eff852ccd8b47784c3efaebf63bb6418f8493",
            "4d026d84e318e4a7d60d207c84475d3caa869f499276bd58cdee386ca628c678"),
    "xae": ("7292acc87422ccb258c6882ab919b4ca614bf3a20d3d4ae09cd04672bfe4e49a",
            "b65fc1395cb068b9f579796969dc80944124c42b5d7cbd92a19b34bfd6173309"),
    "xaf": ("8b57414aab87b83be7df2bcac049b8633f7e24e22916b614b7a1da9dcef30907",
            "297d6811d98c355819addd03678b8a8ac4f8355ca7c556bae2f1f2427afad97c"),
    "xag": ("68a35b605978292afd7a140918274cf3fd2d2c24a0ef96f0e177e576a1b3b9da",
            "e343075bc28293062f1ca82d955c1406235e3d63c419c5ef67ebb9e8516e1eec"),
    "xah": ("4c4d97cfc2d77185aaa70fbfe822d49c02bfd6c95f19863b094c54847f5734d2",
            "4befe2b54c121bc94fbc4599196180b33e646c7a52a345d1f91d90666e260480"),
    "xai": ("b8964e462461637a179b73ed655a8b8e9cdd044ca4e8a4032453dcc75754267e",
            "74781b1c689c3e4899f6021f55a054bf020cf38f74d699faeb6ad72c724af92e"),
}  # fmt: skip
VEHICLE_FILES = tuple(
    _uci(f"uci/vehicle/{part}.dat", f"statlog/vehicle/{part}.dat", content, mirror)
    for part, (content, mirror) in _VEHICLE_DIGESTS.items()
)
# R mlbench::DNA exported as CSV: exists only in the mirror. The canonical
# StatLog/LIBSVM files are the fallback (trusted on first use).
DNA_CSV = RawFile(
    "uci/dna/dna_statlog_mlbench.csv.gz", None,
    "8c80dd785951c9deee8d5b7a75f5392f1da0a56d017b1a429ee253872059af4f",
    "82ac5cce2e8b9628ab6d5f2fa243ffbfcd83f8d511c19e117cab6c1c239f76cc",
)  # fmt: skip
LIBSVM_MULTICLASS = "https://www.csie.ntu.edu.tw/~cjlin/libsvmtools/datasets/multiclass"
DNA_LIBSVM_TRAIN = RawFile("uci/dna/dna.scale", f"{LIBSVM_MULTICLASS}/dna.scale", None)
DNA_LIBSVM_TEST = RawFile("uci/dna/dna.scale.t", f"{LIBSVM_MULTICLASS}/dna.scale.t", None)
# The mirror copy is comma-separated where UCI's file is whitespace-separated
# (its published sha256 differs); the digest ignores the separators. That UCI's
# file normalises to the same content is expected, not verified.
VOWEL = _uci(
    "uci/vowel/vowel-context.data", "undocumented/connectionist-bench/vowel/vowel-context.data",
    "fac41e6eb4e2e2e2b37bad937f98693db61b529657fb25cd40554cfaab53e246",
    "2e95c7be6c5800583b16d15ad36fd21f9681030b69bf96aa6aeab6f4f2f0726d",
    rewrite=((rb"[ \t]*,[ \t]*|[ \t]+", b" "), (rb"(?m)^ | $", b"")),
)  # fmt: skip
# Weka's ARFF pair (jbrownlee/Datasets weka-datasets.zip, so no direct URL),
# together the 2310 UCI rows. UCI's own files are the fallback (trusted on first use).
SEGMENT_FILES = (
    RawFile(
        "uci/segment/segment-challenge.arff", None,
        "db83b84b1618d4adae67d4de38018473d1a1014e8c6b5edfe48e6a96f5abd5ea",
        "f83454c706ab4ebabe66673975bec8de15925bdb448d475da2a26aad06694cff",
    ),
    RawFile(
        "uci/segment/segment-test.arff", None,
        "94d1dfd47bde5becefed86789ef33e3f19113d4b17e92985eb3278766dec867f",
        "11ff8dd597fe939cf6b66ec21f01c64e16318524d3b54e58e5b86fed5340ed18",
    ),
)  # fmt: skip
SEGMENT_UCI_FILES = (
    RawFile("uci/segment/segmentation.data", f"{UCI}/image/segmentation.data", None),
    RawFile("uci/segment/segmentation.test", f"{UCI}/image/segmentation.test", None),
)

# ---------------------------------------------------------------- IDA pools (UCI sources)
BREAST_CANCER = _uci(  # exact bytes equal the UCI file
    "uci/breast-cancer/breast-cancer.data", "breast-cancer/breast-cancer.data",
    "02b23aeb2866b104091a63f572f3c61c51c8c53f993c0a8b2499f6261739a9a6",
    "ca7d3fa97b62ff967b6894ffbb3acaaf4a51062e0149e5950b3ad6f685970b65",
)  # fmt: skip
PIMA = _uci(  # withdrawn from UCI; the URL may no longer answer
    "uci/diabetes/pima-indians-diabetes.data", "pima-indians-diabetes/pima-indians-diabetes.data",
    "6bfe5d0f379d17a0e0819b996407e3c09bf80febd4287f2ed212190dfff154af",
    "06f5b7c2cd7bca686fda4f92eab5f61e7ff6426a9acefa2e3dda04fc54293cf5",
)  # fmt: skip
NEW_THYROID = _uci(  # exact bytes equal the UCI file
    "uci/new-thyroid/new-thyroid.data", "thyroid-disease/new-thyroid.data",
    "71dc0186ae096483a78cbad07e3719d2e53bc8a9ba442f4254734027b76b5ccc",
    "0760039b928ecba5170f377b8fd96caaf55ed26f9861511c52f81395a9d8227a",
)  # fmt: skip
HEART = _uci(
    "uci/statlog-heart/heart.dat", "statlog/heart/heart.dat",
    "4d77377ff8395ae2cd7968678f61180478439fe0ab547de3380cca2eda501285",
    "f5f3b4204c285bafadd85cb735f38b47689f2be7047feb172dcbeab648110bf9",
)  # fmt: skip
# Line 1 differs between copies (column names here, reportedly a date range at UCI).
FLARE = _uci(
    "uci/solar-flare/flare.data2", "solar-flare/flare.data2",
    "0424a9b24c4ea7cda833abfbbd1a64949f7bb92a13958c5a37a453dd9f0b5691",
    "1ac3097d050986c1016754c1506117d353561db06f8d774de0111088f19dda0c",
    skip_lines=1,
)  # fmt: skip
SPLICE = _uci(
    "uci/splice/splice.data", "molecular-biology/splice-junction-gene-sequences/splice.data",
    "39f9fd9213156a7f2b4309c2748232dbeb33e459c474c63b58a849e96070038c",
    "ebbae10c85d3c285e2a2489a37e42bc2ee8d91d15005e391a9962fa3389a114f",
)  # fmt: skip

# ---------------------------------------------------------------- IDA files
_RAETSCH_DIGESTS = {
    "banana": {
        "train_data": ("276262c3c5882e6708e4c03cbaed721cc3d8061b9bacbd23d029a230d01f4b91",
                       "d9ae475e6aa77ef0faa1fdad1d9f476756cb466445a3e65c760988d8a45c1753"),
        "train_labels": ("83f7df7dc1704d2bc218222c3ff42718d48c051aeacf2f31948a565f75fd0aeb",
                         "d009b24035b8af68f2683a27b9e14abe20c6b0984d3647f5168ec0d5843d2f65"),
        "test_data": ("ffc1a283c99c4f504783fda6dfaed70869260b0d2faecb4befe052f12beb21a1",
                      "e9979e1ffeb52f3a4c541eca4f2967ab2dee22e768e775229d954ee725acfdf5"),
        "test_labels": ("0a9f79466a59469cf7712dec52bacbf38fc109656b18864f962f2fc46274e27b",
                        "979ec19fc7f08a2e91f6f6d449362f83b07031c0d44a0e4c640b03ee73659e77"),
    },
    "german": {
        "train_data": ("c0bfee1ba77d246d84e4cd24b5084f187073786a14cf94f138d2492b3cfa4cdf",
                       "f1ec4bd3c2be2b4c2f82269a6e682ebf4e4b8a30035bfeb2346b23987a50e6c1"),
        "train_labels": ("566b6cf79cdda8e58f7196f6030a17ccdc0dec4c46920f3a9e4b27a3f66b5c9e",
                         "40a2b2bed596b77d728f5969cd828b2d28b3bbec0adaf4f91ba2754a04124c28"),
        "test_data": ("d03e1deb20652bbc04fe105771ec216305d62869457bc42e8f1cc2a9052d8715",
                      "210595e068a16bf5770fb05756428484f5ac45c77e9365d160cbc412dab17c77"),
        "test_labels": ("b440891f744eb78461cc6a3d98fce459ea1c24416636d3f29a8b71f81bb2ba36",
                        "6e8cc451afccc692660d8fa8e5984b51c05cb63cd81bd5eb373064ec36ed4935"),
    },
    "titanic": {
        "train_data": ("0bc83a38ee0b4f9bad9138d72d7a50dc4e35839a08528a8fea9767df937cbf2a",
                       "d6cbbc75a78a178c045f91d6aab17c8d00d0f25334cb40866278e38d38073fd8"),
        "train_labels": ("849e2cc53224eb9b1e85f84d67e86f5d23ffb2bd773bd01fdbed9a03e0f5f9b1",
                         "b67f6cf3b8bd3bf76cfcfcc223375c40ddff563fc7be3940e091c5dae27151cf"),
        "test_data": ("1e83c888fc972ceec94aeb7386bd6e947cf5c3f849a8518f708ece628afe54fb",
                      "b1871076c74e5cb77a77752d3466855be3ee5a757d0da377dab5d239bece072d"),
        "test_labels": ("5d1c337e0d6fb0c288a9e2d84320a0d6890b43d784281bcd1ffd6d1c24b47d34",
                        "8b526de41d075401fb92cd711414eedf8a0783621a5ec4194f28c0f7549e9cbf"),
    },
}  # fmt: skip


def raetsch_split_files(name: str) -> dict[str, RawFile]:
    """The four ``.asc`` files of IDA realisation 1 of ``name`` (banana, german, titanic),
    keyed ``train_data``, ``train_labels``, ``test_data``, ``test_labels``.

    They come from a copy of the IDA benchmark and have no canonical URL of their own.
    """
    return {
        part: RawFile(f"raetsch/{name}/{name}_{part}_1.asc", None, content, mirror)
        for part, (content, mirror) in _RAETSCH_DIGESTS[name].items()
    }


# Matlab v7 file with all 13 IDA sets and their 100 (20) realisations; optional.
RAETSCH_BENCHMARKS_MAT = RawFile(
    "raetsch/benchmarks.mat", f"{RAETSCH_REPO}/raw/master/benchmarks.mat", None, text=False, optional=True
)
