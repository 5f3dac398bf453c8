"""scikit-learn's sample-weight equivalence checks that the weighted estimators meet only up to a tolerance (issue 42).

``check_sample_weight_equivalence_on_dense_data`` (and ``..._sparse_data``) compare a fit with
integer weights and one on the rows repeated at rtol=1e-7. tests/library/test_weights.py checks the
same equivalence at the tolerance each solver allows; here, for ``parametrize_with_checks``,
why the strict check cannot hold.
"""

_CHECKS = ("check_sample_weight_equivalence_on_dense_data", "check_sample_weight_equivalence_on_sparse_data")

LIBSVM = (
    "libsvm stops at its tolerance (tol / svm_tol), so integer weights (a per-sample C) and repeated rows reach "
    "the same dual optimum only to ~1e-4 in f, not rtol=1e-7 (scikit-learn marks SVC's check so); "
    "tests/library/test_weights.py checks them at a tight tolerance"
)
SPLIT = (
    "the validation split (or the cross-validation folds) are drawn over the distinct rows, so integer weights "
    "and repeated rows hold out different points; tests/library/test_weights.py checks the weighted fit with one candidate"
)
TIES = (
    "AdaBoost.ECC and AdaBoost.MH on 15 points and 30 features find stumps of equal edges (ECC several perfect "
    "ones, edge 1; MH at its binned default two of edge 0.798 in its third round); sums of weights over repeated "
    "rows differ from weighted sums by an ulp, which breaks those ties differently; tests/library/test_weights.py "
    "checks them where no stumps tie"
)

CG_PATH = (
    "column generation stopped at max_iter before the optimum (the checks' fits keep 10-50 columns): which columns "
    "enter on the way depends on ties and rounding in the pricing, which differ between a weighted row and its "
    "copies, so the restricted models differ; tests/library/test_cg_weights.py checks integer weights = repeated rows at "
    "the optimum"
)
DUAL_CD = (
    "the dual coordinate descent master stops at liblinear's tol=1e-3 (a projected-gradient span), so a per-sample "
    "C and repeated rows agree to ~1e-3 in f, not rtol=1e-7; tests/library/test_cg_weights.py checks them at that tolerance "
    "and, with Clarabel, at 1e-6"
)


def weight_checks(reason: str) -> dict[str, str]:
    """The sample-weight equivalence checks as expected failures, for ``reason``."""
    return dict.fromkeys(_CHECKS, reason)
