"""The parameter and attribute descriptions the column-generation estimators share, written once.

Each fragment is a run of numpydoc entries that begins with a newline; an estimator's
docstring is its own text with the fragments of the parameters it shares joined in
(:mod:`.column_generation`, :mod:`.cgboost`, :mod:`.cgboost_regressor`, :mod:`.cgens`,
:mod:`.lpboost`, :mod:`.cgens_sls`).
"""

__all__ = [
    "BLAS_THREADS",
    "KERNEL_ATTRIBUTES",
    "KERNEL_COLUMNS",
    "KERNEL_LIBRARY",
    "KERNEL_PROBLEM",
    "LEARNER",
    "LEARNER_REST",
    "LOOP",
    "MAX_ITER",
    "N_JOBS",
    "PROBABILITY",
    "SPLIT_SEARCH",
    "SAMPLED_LEARNERS",
    "SCALING",
    "STRATIFY_RATIO",
]

#: ``kernels`` and ``positive`` of CG-Boost (classifier and regressor).
KERNEL_LIBRARY = """
    kernels : str or sequence of kernel specs, default=("linear", "quadratic", "rbf")
        The kernel library S (eq. 3): names ("linear", "quadratic", "rbf", "poly",
        "weak_rbf", or the letters "L", "Q", "R"), mappings such as
        ``{"name": "rbf", "sigma": 2.0}``, or Kernel objects; a string "L,Q,R" is
        a mixture of three kernels, "L+Q" one composite kernel with mu = 1. The RBF
        width defaults to the mean of ||x_i - x_j||^2 over the training points (§5).
    positive : bool or "label", default=False
        Free alpha (§4.2, eq. 11; eq. 13 for regression) or alpha >= 0 (True: eq. 4,
        7, the paper's sparse models). The classifier also takes ``"label"``:
        alpha >= 0 on the label-signed columns y_j K_p(., x_j), the SVM-style
        expansion f(x) = sum_j alpha_j y_j K(x, x_j) + b, i.e. each coefficient of
        the model (``coef_``) has the sign of its centre's label. The paper's eq. 1
        has no y_j; this is the other reading of its sign constraint. False and
        "label" give the same partition whichever class is called positive; True
        does not (its alpha >= 0 favours the class coded +1), and on non-negative
        features such as pixels it collapses (MNIST-1000 odd/even, pixels / 255:
        18.2 % test error against SVC()'s 6.7 %). The default is chosen by
        ``benchmarks/defaults.py`` (issue 42): with the scaling and kernels below,
        free alpha matched SVC() within a point on breast cancer, wine and
        ``make_classification(2000, 50)`` (2-3 splits each) in about a second, while
        "label" took 25-175 s on the latter for the same accuracy."""

#: How the inputs and the kernels are put on one scale (kernel columns).
SCALING = """
    scaling : {"range", "standard", "center"} or None, default="range"
        How the inputs are put on one scale before the kernels see them, fitted on
        the training points (``input_mean_``, ``input_scale_``; see
        :func:`input_scaling`): each feature centred and divided by its range, then
        all by one factor so that their mean variance is 1; each feature
        standardised; only centred; or as given (None, the papers' protocols). With
        "range" or "standard" the model is the same whatever the units of each
        feature. Measured by ``benchmarks/defaults.py`` (free alpha, C = 10, 2
        splits each): "range" matched or beat SVC() on raw breast cancer, wine,
        ``make_classification(2000, 50)``, digits and MNIST-1000 odd/even, and SVR()
        on diabetes and Friedman #1; "standard" blew up rare pixels (MNIST: 86-89 %
        accuracy against SVC()'s 93 %; digits 96 % against 98.5 %); "center" left
        the units in (wine: 74 % against 98 %). ``centres_`` stay in the units of X;
        the kernels (``kernels_``) act on the scaled inputs, since an RBF of scaled
        inputs is no RBF of the raw ones.
    normalize_kernels : bool, default=True
        Divide each kernel of the library by a scale set on the training points
        (:mod:`mkbench.kernels.scaled`), so that L, Q and R weigh alike in the master:
        for the 2-norm QPs, so that a point's row of columns has unit mean squared
        norm (each kernel 1 / P of it), and C = 1 means what it means for an RBF SVC
        whatever n; for the LP, unit mean diagonal (columns bounded as LPBoost's
        weak hypotheses). False keeps the kernels in their own units (the papers')."""

#: CG-Boost's offset, C, tolerance and column count.
KERNEL_PROBLEM = """
    fit_intercept : bool or "regularized", default=True
        True: a free, unregularised offset b (§4.1, second case); "regularized":
        b penalised like a constant column (§4.1, first case); False: no offset.
    C : float, default=10.0
        Weight of the slacks. With the defaults above (inputs scaled by ranges,
        kernels normalised, free alpha) C = 10 was chosen by ``benchmarks/defaults.py``
        over C in {1, 3, 10, 30}: it matched or beat SVC() / SVR() on every data set
        of the panel and on MNIST-1000 odd/even (93.3-94.3 % against SVC()'s
        92.9-93.5 %, pixels in [0, 1] and centred, 0.5 s), where C = 1 lost 2.5-5
        points on digits and Friedman #1. The papers' protocols give their own C.
    tol : float, default=1e-6
        Columns enter while their dual violation exceeds ``tol`` (eq. 6, 10, 12, 14).
    max_iter : int or None, default=None
        Most columns to generate; None: the library's P * n, which column generation
        never passes (a column enters once), so it ends at the optimum. (Until
        2026-11-26 the default was 1000: CG-Boost L,Q,R on centred MNIST-1000 needs
        1700 columns.)"""

#: The loop over kernel columns: strategy, multiple pricing, limits, callback, progress.
LOOP = """
    strategy : {"auto", "stratified", "full", "all"}, default="auto"
        "auto": "all" for the dense 2-norm models (free alpha) whose P * n^2 kernel
        values fit ``memory_budget``, else "stratified". Stratified column
        generation (§5), a full scan at every iteration, or
        "all": every column of the library enters the master at once and the
        full master is solved directly (``n_iter_`` = P * n, no pricing),
        the optimum column generation reaches (Theorem 3.1, Remark 4.1). For the
        dense models of free alpha (every alpha_j = score_j, eq. 8), where column
        generation would add the P * n columns one master solve at a time; there
        the coefficients with |alpha_j| <= ``tol``, which column generation would
        not have generated, are set to 0. Pair it with ``solver="libsvm"`` (one
        SVM dual on the Gram matrix of all columns).
    priority : sequence of int or str, default=None
        Kernel order of the stratified strategy; None keeps the order of ``kernels``.
    columns_per_iteration : int, "sqrt" or "auto", default="auto"
        Columns entering per pricing step (multiple pricing): the most violating
        one and the next violating columns of the same scan (the kernel that
        supplies the column, with the stratified strategy). 1 is the paper's
        algorithm (§3, §5); "sqrt" enters ceil(sqrt(m)) columns when the master
        holds m; "auto" is "sqrt" for the 2-norm QPs (eq. 7, 11, 13), whose
        optimal alpha is unique (the objective is strictly convex in alpha), so
        the model is the one-column path's, and 1 for the LP (eq. 4), whose
        optimum may not be unique. Measured on MNIST-1000 odd/even L,Q,R (alpha >= 0,
        free offset; 2026-11-26): centred unit-norm pixels 10.9 -> 2.4 s at C = 1
        (1697 columns) and 22 -> 10 s at C = 100; pixels / 255 1.1 -> 0.8 s.
    time_limit : float, default=None
        Seconds after which no column is generated (a ConvergenceWarning is issued).
    gap_tol : float, default=None
        Stop early once the duality gap is at most ``gap_tol`` times the objective
        (Proposition 4.1; the paper's early termination, §5). The gap is known after
        full scans only: every iteration with ``strategy="full"``, and the
        iterations where the stratified strategy finds no violating error-point column.
    memory_budget : int, default=512 MiB
        Bytes of kernel values kept; larger libraries are priced block by block.
    callback : callable, default=None
        ``callback(estimator)`` after each master solve, with the current model
        fitted (``predict`` works); a mapping it returns joins that
        iteration's ``history_`` row (e.g. a validation error, Fig. 1 bottom).
    verbose : int, default=0
        Print a line every ``verbose`` columns (objective, largest dual violation,
        columns, seconds) and one when the fit stops; 0: silent."""

#: The stratified strategy's "appropriate" column (CG-Boost's classifier).
STRATIFY_RATIO = """
    stratify_ratio : float, default=0.0
        What the stratified strategy (``strategy="stratified"``) calls an "appropriate"
        column of a cheaper kernel (§5: "if no appropriate linear kernel column can be
        added, then we consider columns from more complicated kernels"), passed to
        :class:`mkbench.oracles.KernelOracle`: 0, any column violating by more than
        ``tol`` (the default reading); r in (0, 1), a kernel supplies columns only while
        its largest violation exceeds r times its largest violation when its columns
        were first priced, so that columns of later kernels can enter before every
        column of an earlier one has. It changes the path of column generation, not
        its optimum."""

#: The fitted kernel expansion.
KERNEL_ATTRIBUTES = """
    Attributes
    ----------
    coef_ : ndarray of shape (n_columns,)
        alpha of each generated column, in the order generated (some may be 0).
    columns_ : list of (str, int)
        Kernel name and training-point (centre) index of each generated column.
    centres_ : ndarray of shape (n_columns, n_features)
        The centre x_j of each generated column.
    intercept_ : float
    kernels_ : tuple of Kernel
        The library with data-dependent widths resolved.
    n_iter_ : int
        Columns that entered the master: generated one per iteration, or all P * n
        with ``strategy="all"``.
    status_ : {"optimal", "gap_tol", "max_iter", "time_limit"}
    history_ : list of dict
        Per iteration: objective, max violation, duality gap (Prop. 4.1, full scans
        of the QPs), columns per kernel, columns priced and computed, seconds.
    n_columns_by_kernel_ : dict
        Columns with nonzero alpha per base kernel (C_l, C_q, C_r of Table 1).
"""

#: Every parameter and attribute of CG-Boost's kernel columns (classifier and regressor).
KERNEL_COLUMNS = KERNEL_LIBRARY + SCALING + KERNEL_PROBLEM + LOOP + KERNEL_ATTRIBUTES

#: Platt probabilities (:class:`._multiclass.MarginClassifierMixin`).
PROBABILITY = """
    probability : bool, default=False
        Fit Platt's sigmoid on 5-fold cross-validated decision values, as SVC does,
        so that ``predict_proba`` exists (5 more fits)."""

#: ``n_jobs`` of a fit over kernel columns with two classes (:func:`._kernel_columns.blas_threads`).
BLAS_THREADS = """
    n_jobs : int, default=None
        BLAS threads of a fit (scikit-learn's convention: None means 1 unless in a
        ``joblib.parallel_config`` context, -1 all processors; 0 is refused). The fit is
        BLAS products (the Gram blocks K_p(X, X), the full master's G = H H', the pricing
        scores K_p w), which run on ``n_jobs`` threads; one by default (see "One BLAS
        thread" in :mod:`mkbench.estimators._docs`). The same model up to the rounding of
        the products' sums, which the threads split. For idle cores only: on 2 cores at
        load 3-4, CG-Boost L,Q,R at its defaults on MNIST-1000 took 2.0-2.3x its
        one-thread time with ``n_jobs=2`` (2026-11-28), as OpenBLAS's threads wait on
        each other when the cores are busy."""

#: Parallel fits: the stump search's chunks, BLAS threads, one-vs-rest (``_fit_per_class``).
N_JOBS = """
    n_jobs : int, default=None
        Threads or processes a fit uses (scikit-learn's convention: None means 1 unless in
        a ``joblib.parallel_config`` context, -1 all processors; 0 is refused). With two
        classes, over decision stumps each search splits the features into ``n_jobs``
        chunks searched at once in threads, the one-thread model bit for bit (as
        :class:`mkbench.CGEnsClassifier`'s ``n_jobs``); over kernel columns the BLAS
        products (the Gram blocks, the full master's G = H H', the pricing scores) run on
        ``n_jobs`` threads, the same model up to the rounding of their sums (for idle
        cores: see :class:`mkbench.CGBoostRegressor`'s ``n_jobs``). With more
        than two classes, the one-vs-rest models fitted ``n_jobs`` at a time, each on one
        thread; the same models as one at a time. Over kernel columns the classes share
        what does not depend on the labels: the input scaling, the library resolved on
        the training X and one store of the kernel values K_p(x_i, x_j) (the Gram blocks,
        kept within ``memory_budget``, else a cache of columns), each value computed once
        for all the classes (``n_kernel_columns_computed_`` counts them), which apply their
        own label signs (``positive="label"``) on top; their fits run in joblib's threads,
        which fill the store under locks. Over weak learners, which share nothing, in
        joblib's processes."""

#: ``n_jobs`` of the estimators that search decision stumps (issue 44; :mod:`mkbench.learners._chunks`).
SPLIT_SEARCH = """
    n_jobs : int, default=None
        Decision stumps: each search splits the features into ``n_jobs`` contiguous
        chunks searched at once in threads (the compiled searches release the GIL),
        whose best stumps are merged by the one-thread search's rule (the largest score,
        ties to the lowest sorted position, then the lowest feature) and whose sums of
        squared scores are added feature by feature in order: the fitted model is the
        one-thread fit's, bit for bit. scikit-learn's convention: None means 1 unless in
        a ``joblib.parallel_config`` context, -1 all processors; 0 is refused. Other
        learners ignore it. The restricted masters stay on one thread (coordinate descent is
        sequential; Newton's products X d split over two threads made CGEns slower), so the
        fit gains what the search costs: on MNIST odd/even (n = 10 000, 784 pixels, binned)
        a search took 2.5-2.9 ms on two threads against 6.0 ms on one, and CGEns with 500
        stumps took 0.90x its one-thread time at C = 0.001, where the search is a fifth of
        the fit, and 1.01x at C = 1 (``benchmarks/cgens_across_c.py``, load 1-1.7)."""

#: ``learner`` and ``C`` of the ensembles of weak learners (CGEns, LPBoost).
LEARNER = """
    learner : {"stump", "perceptron", "fourier"}, default="stump"
        Weak learners: decision stumps (binned or exact, ``max_bins``), or ``n_candidates``
        perceptrons sign(theta'x - kappa) / Fourier features cos(theta'x - kappa)
        drawn per iteration (§VI-A; :mod:`mkbench.learners`).
    C : float, default=1.0
        Weight of the hinge slacks, > 0."""

#: ``max_iter`` of the ensembles of weak learners (CGEns, CGEns-SLS, LPBoost).
MAX_ITER = """        Learners to add, J_max of Algorithms 1 and 2: the size of the ensemble, as
        ``n_estimators`` is AdaBoost's. Reaching it is the fit's usual end, not a
        warning (``status_`` "max_iter"): the optimum over every weak learner can take
        thousands of learners (CGEns on breast cancer at the defaults: a score still
        0.002 > ``tol`` after 3000 stumps), far more than a good ensemble needs, and
        the papers choose the count by cross-validation (CGEns §VI-A; see
        :class:`mkbench.StagedSearchCV`). The fit ends earlier, "optimal", when no
        learner's score exceeds ``tol``."""

#: The sampled weak learners (perceptrons, Fourier features).
SAMPLED_LEARNERS = """
    n_candidates : int, default=2000
        Learners drawn per iteration for "perceptron" and "fourier" (§VI-A).
    gamma : float, default=None
        Gaussian width of the Fourier learners, theta ~ N(0, 2 gamma I) for the
        kernel exp(-gamma ||x - x'||^2) (use the SVM's cross-validated gamma, §VI-A);
        None: 1 / (n_features X.var()), scikit-learn's ``gamma="scale"``.
    random_state : int, RandomState or None, default=None
        Seeds the sampled learners."""

#: ``max_bins`` of every estimator that searches decision stumps (issue 44).
MAX_BINS = """
    max_bins : int or None, default=255
        Decision stumps: each feature's training values quantised once into at most
        ``max_bins`` bins (2 to 256; 255 is HistGradientBoosting's and LightGBM's
        default), and each search a histogram of the weights over the bins that skips
        each feature's heaviest bin, its zeros (:class:`mkbench.learners.BinnedStumps`).
        On features with at most ``max_bins`` distinct training values the stumps and
        their scores are the exact search's, summed in another order: the model is the
        exact one except where two stumps tie exactly (an LP's vertex duals, uniform
        weights on integer features), a tie the rounding may break either way. On other
        features, the exact stumps at the bins' edges. On MNIST (n = 10 000, d = 784),
        binding and each search take 0.33-0.52x the exact search's CPU time
        (``results/bench/stump_binning.json``). None: the exact search over every
        threshold (:class:`mkbench.learners.Stumps`), the papers', which their protocols
        pin. A sparse X is binned from its stored entries while the bins' tables
        (17 ``max_bins`` bytes per feature) fit in 256 MiB, about 62 000 features at 255
        bins, else searched exactly from them (:class:`mkbench.learners.SparseStumps`).
        Other learners ignore it."""

#: The rest of CGEns' and LPBoost's parameters, and their attributes.
LEARNER_REST = (
    """
    max_iter : int, default=100
"""
    + MAX_ITER
    + """
    time_limit : float, default=None
        Seconds after which no further learner is added (status "time_limit"; a
        ConvergenceWarning says so, as the ensemble is then smaller than ``max_iter``)."""
    + SAMPLED_LEARNERS
    + MAX_BINS
    + PROBABILITY
    + SPLIT_SEARCH
    + """
    verbose : int, default=0
        Print a line every ``verbose`` learners (objective, largest dual violation,
        learners, seconds) and one when the fit stops; 0: silent.

    Attributes
    ----------
    classes_ : ndarray of shape (2,)
        ``classes_[1]`` is the positive class.
    learners_ : list of Stump, Perceptron or FourierFeature
        The chosen weak learners h_j, in the order added.
    coef_ : ndarray of shape (n_iter_,)
        Their weights w_j.
    intercept_ : float
        Offset b.
    coef_path_ : list of ndarray
        ``coef_path_[t]``: the weights of the first t learners in the restricted
        model after t iterations (t = 0 .. n_iter_), each master as solved on the
        way (to ``loose_tol`` where the master has one), the last to ``solver_tol``.
    intercept_path_ : ndarray of shape (n_iter_ + 1,)
    n_iter_ : int
        Learners added.
    status_ : {"optimal", "max_iter", "time_limit"}
        "optimal": no learner's score exceeded ``tol``; "max_iter": ``max_iter``
        learners added, the usual end (no warning); "time_limit": stopped by
        ``time_limit`` before either (a ConvergenceWarning).
    history_ : list of dict
        Per iteration: restricted objective, largest score, duality gap, learners
        priced, seconds (:func:`mkbench.cg.column_generation`).
    n_features_in_ : int
"""
)


# One BLAS thread: why the column-generation and MKL estimators fit on one BLAS thread (``threadpool_limits.wrap`` on their
# ``fit``): their restricted masters' solves are small (J x J systems, m x J products, one SVM per kernel
# weighting), so BLAS threads only add synchronisation, and on a busy machine they made a default fit 7-60x
# slower for the same model (CGEns-SLS on digits 27 s against 0.43 s; CG-Boost on breast cancer 0.77 s
# against 0.10 s at load 2 on 2 cores). The workflow's jobs run on one thread already (Snakemake sets
# OPENBLAS_NUM_THREADS to a rule's threads), so the papers' tables are unchanged. ``n_jobs`` > 1 is the user's
# explicit choice: over kernel columns it lifts the limit to n_jobs BLAS threads for a fit with two classes
# (:func:`._kernel_columns.blas_threads`); over stumps it splits the search into threads, the masters still on one.
