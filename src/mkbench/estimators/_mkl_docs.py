"""The parameters and attributes SILP and SimpleMKL share, for their docstrings (:mod:`mkbench.estimators._mkl`)."""

__all__ = ["COMMON_ATTRIBUTES", "COMMON_NOTES", "COMMON_PARAMETERS"]

COMMON_PARAMETERS = """
    kernels : "auto", "simplemkl", mapping, or sequence of kernel specs, default="auto"
        The kernels K_1..K_M. ``"auto"`` (:func:`mkbench.kernels.grid.auto_grid`) is the
        SimpleMKL grid's 13 kernels on all variables (Gaussians exp(-||x - z||^2 / (2 w^2))
        of widths w = 0.5..20, polynomials (x'z + 1)^q of degrees 1-3), and the same on each
        variable too only while the whole grid has at most 2^23 training-kernel values
        (:data:`mkbench.kernels.grid.AUTO_GRID_VALUES`, (13(d + 1)) n^2: wine yes; breast
        cancer, digits, any n > 568 no). ``"simplemkl"`` is the grid of the paper's
        experiments (:func:`mkbench.kernels.grid.kernel_grid`: those kernels on all variables
        and on each variable, 13(d + 1) kernels); a mapping ``{"grid": "simplemkl", "widths":
        [...], "degrees": [...], "variables": [[0, 1], [2], ...], "each_variable": bool}``
        changes its options (``variables`` groups columns, e.g. the one-hot columns of a
        categorical variable); ``"precomputed"``: ``fit(KL, y)`` and ``predict(KL_test)`` take
        the Gram matrices themselves, MKLpy's way: a list of M training kernels (n, n) (or an
        (M, n, n) array) and M test kernels (n_test, n) (:mod:`mkbench.kernels.precomputed`);
        otherwise a kernel library as for :func:`mkbench.kernels.make_library`
        ("L,Q,R", a list of names, mappings, Kernel objects or callables k(X, Z)).
        Every kernel is scaled to unit trace on the training inputs. Why not the paper's grid
        by default (issue 42): it has 403 kernels on breast cancer (d = 30), 663 on
        ``make_classification(2000, 50)`` and 806 on digits (61 non-constant pixels), 10 GB of
        training kernels at n = 1257-1400; fits at the former defaults took more than 35 s
        there (2 cores), and with the inputs scaled and C = n SimpleMKL reached 500 iterations
        without the gap on breast cancer (35 s of CPU), while the 13 kernels fitted in 0.2-0.3 s
        at accuracies within 1.2 points (see :data:`~mkbench.kernels.grid.AUTO_GRID_VALUES`).
    C : float > 0 or "auto", default="auto"
        SVM box constraint 0 <= alpha_i <= C; ``"auto"`` is the number n of training points
        (``C_``). The kernels have unit trace (mean diagonal 1/n), and the SVM with C on them
        is the SVM with C / n on the same kernels of mean diagonal 1 (alpha scaled by n), so
        C = n is the C = 1 of scikit-learn's ``SVC()`` on an RBF kernel, at any n. The
        paper's C = 100 (the workflow pins it; C / n = 0.22-0.69 on its Sonar, Ionosphere and
        Credit training sets of n = 145-457) is C / n = 0.08 on digits, which underfits:
        measured (issue 42; inputs range-scaled, the 13 kernels, 70/30 split, draw 0), test
        accuracy of SILP / SimpleMKL on digits 0.965 / 0.969 with C = 100 and 0.994 / 0.994 with
        C = 1000 (SVC() 0.987); on ``make_classification(2000, 50)`` 0.972 / 0.972 with C = 100,
        0.983 / 0.982 with C = 1000 and 0.985 / 0.983 with C = n (SVC() 0.980). On breast cancer
        (draws 0-2) C = n gave 0.947 / 0.971 / 0.959 with both methods, C = 1000 0.947 / 0.971 /
        0.965-0.971, in fewer iterations (SILP 10 against 12-14, SimpleMKL 1-4 against 4-10); on
        wine both 1.0. C = n rather than a fixed 1000 keeps C / n, the regularisation, at
        SVC()'s at every n.
    scaling : {"range", "standard", "center"} or None, default="range"
        The inputs' scaling, fitted on the training inputs and applied to every X the kernels
        see (:func:`mkbench.estimators._scaling.input_scaling`): "range" divides each centred
        feature by its range, then all by the one factor that gives them mean variance 1;
        "standard" standardises each feature; None takes the inputs as given (the paper
        standardised its data sets beforehand; the workflow pins None). Not used with
        ``kernels="precomputed"``. The kernels of raw features depend on their units:
        measured (issue 42; 70/30 splits, draws 0-2), at the former defaults (the paper's grid,
        C = 100) both methods reached 0.90 on raw breast cancer (SVC() 0.90-0.92); at the new
        ones, SILP / SimpleMKL reached 0.947-0.971 with "range" and 0.953-0.971 with "standard"
        there, and 0.987-0.994 with "range" against 0.981-0.987 with "standard" on digits (SVC()
        0.983-0.987), whose border pixels, rarely non-zero, standardisation blows up.
    tol : float > 0, default=0.01
        Stop when the relative gap is at most ``tol``.
    max_iter : int >= 0, default=500
        Most weight updates (SimpleMKL's ``nbitermax``).
    svm_tol : float > 0, default=1e-5
        libsvm's stopping tolerance for each SVM (scikit-learn's 1e-3 makes the
        gradients and line-search values too noisy near the optimum).
    probability : bool, default=False
        Fit Platt's sigmoid on 5-fold cross-validated decision values, as SVC does,
        so that ``predict_proba`` exists (5 more fits; not with precomputed kernels;
        :class:`mkbench.estimators._multiclass.PlattMixin`).
    n_jobs : int, default=None
        Classes fitted at a time by one-vs-rest, in threads sharing the one stack of
        training kernels (joblib; scikit-learn's convention: None means 1 unless in a
        ``joblib.parallel_config`` context, -1 all processors). Two classes make one fit.
        Threads, not processes: libsvm trains without the GIL and the threads read the one
        stack in place, where loky's workers would each map it from disk and import mkbench
        afresh (its first fit took 15 s against 1.6-2.5 s in threads on 900 digits, 2 cores
        at load 6). Measured (issue 42) on 1000 digits, 10 classes, 2 cores shared at load
        12: SILP 3.1-4.0 s with one job, 2.9-3.0 s with two; SimpleMKL 11.8-12.3 s and
        11.7-13.9 s; the same CPU time (1.0-1.6 s, 4.0-4.5 s): the gain is the idle core's,
        none when the cores are busy.
    dtype : {"float64", "float32"}, default="float32"
        The type the training kernels are stored in (issue 44). "float32" halves the bytes of
        the stack, which every combination of the kernels and every gradient reads: each
        kernel is computed and scaled to unit trace in float64, then rounded once to the
        nearest float32 (with ``sample_weight``, after the scaling to unit weighted trace), a
        relative change of at most 2^-24 per entry, and the combinations sum_k beta_k K_k, the
        gradients and J(beta) are still accumulated in float64. The duality gap then certifies
        the MKL problem of the rounded kernels: ``objective_`` is within ``tol`` (relative) of
        its optimum, which is the float64 kernels' optimum up to 2^-24 x 1/2 |alpha|'|K||alpha|
        (J is linear in the kernels; |K| the entrywise largest |K_k|; 2e-9 relative in the
        tests). Predictions compute the kernels in float64. Measured (issue 44; the mkl-uci and
        mkl-credit experiments' first split, CPU seconds, medians of 3, one thread): SimpleMKL
        1.27 -> 0.84 s on Ionosphere, 2.15 -> 1.73 on Sonar, 2.82 -> 1.59 on Credit, 5.6 ->
        4.4 at defaults on make_classification(2000, 50) with 20 kernels; SILP 1.39 -> 0.92 on
        Ionosphere, 0.93 -> 0.62 at defaults and the same on Sonar and Credit (its LPs
        dominate there); test errors over 5 splits the same within one test point. "float64"
        is the papers' path (the workflow pins it)."""

#: The start of the Notes section both MKL classifiers share; each adds its own paragraphs after it.
COMMON_NOTES = """
    Notes
    -----
    More than two classes are fitted one-vs-rest (one model per class, ``estimators_``), all
    from one stack of training kernels, computed once (digits, 10 classes, 13 kernels: 0.15 s of
    CPU once, where each class computed its own, 0.5-0.7 s each, before issue 42).

    ``fit`` takes ``sample_weight`` (a per-sample C; see :mod:`mkbench.estimators._mkl`), not
    sparse X (the kernels are dense): a sparse matrix raises a TypeError naming those that take one.
"""

COMMON_ATTRIBUTES = """
    Attributes
    ----------
    weights_ : ndarray of shape (n_kernels,)
        Kernel weights beta on the simplex; exactly 0 for unused kernels.
    dual_coef_ : ndarray of shape (n_support,)
        y_i alpha_i of the support vectors.
    support_ : ndarray of shape (n_support,)
        Indices of the support vectors in the training data.
    support_vectors_ : ndarray of shape (n_support, n_features)
        (n_support, 0) with precomputed kernels: ``support_`` indexes the training kernels' columns.
    intercept_ : float
        Offset b.
    C_ : float
        The box constraint used: ``C``, or n for ``C="auto"``.
    input_mean_, input_scale_ : ndarray of shape (n_features,) or None
        The input scaling (X - input_mean_) / input_scale_ the kernels see; None without one.
    objective_ : float
        J(weights_), the SVM dual objective with the combined kernel.
    n_iter_ : int
        Weight updates made.
    n_svm_fits_ : int
        SVMs solved in all.
    n_support_ : int
        Number of support vectors.
    n_kernels_selected_ : int
        Kernels with beta_k > 0 (the "# Kernel" column of the paper's table).
    status_ : str
        "optimal" (gap <= tol), "max_iter", or "stalled" (no decrease found).
    history_ : list of dict
        Per iteration: objective J(beta), gap, n_kernels (beta_k > 0), n_svm
        (SVMs so far), seconds since the start of ``fit``.
    kernels_ : tuple of Kernel
        The kernels, data-dependent defaults resolved (names "precomputed[k]" for precomputed ones).
    kernel_scales_ : ndarray of shape (n_kernels,)
        1 / trace of each training kernel.
    classes_ : ndarray of shape (2,)
"""
