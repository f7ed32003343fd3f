/* attack: sampling, PGD on the spec margin, and sound confirmation. See include/vfy/attack.h. */
#include "vfy/attack.h"
#include "vfy/eval.h"
#include "vfy/la.h"

#include <math.h>
#include <string.h>

#define ATTACK_MAX_STARTS 64
/* The first step of a descent, as a fraction of the box: from a sample, half the box, so that
 * the steps add up to past its width (a margin nearly linear in x is least at a corner: a step
 * of a tenth, summing to a third of the box, never got there on wide image boxes); from a given
 * point (a relaxation's minimiser, already near a violation), a tenth. */
#define ATTACK_FIRST_STEP 0.5
#define LOCAL_FIRST_STEP 0.1

struct vfy_attack_ws {
    const vfy_net *net;
    vfy_bounds *pt;       /* bounds of a point box, for confirmation */
    double *scratch;      /* vfy_eval_ws_len */
    double *y;            /* n_out */
    double **acts;        /* per layer outputs */
    double *g, *grad, *x, *best, *lo, *hi, *cyrows, *negx, *lb;
    double *blo, *bhi;    /* n_in: the real points a confirmed counterexample stands for */
    double *starts, *start_m; /* ATTACK_MAX_STARTS points and their margins */
    const vfy_bound_ctx *ctx; /* the search's (borrowed): with the float-execution allowance
                                 unless real-only */
    float *x32, *y32, *s32;   /* float32 evaluation */
    int64_t cap_rows;
};

void vfy_rng_seed(vfy_rng *r, uint64_t seed) { r->s = seed * 0x9E3779B97F4A7C15ull + 0x632BE59BD9B4E019ull; }

static uint64_t rng_next(vfy_rng *r)
{
    uint64_t z = (r->s += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

double vfy_rng_uniform(vfy_rng *r) { return (double)(rng_next(r) >> 11) * 0x1p-53; }

void vfy_attack_ws_free(vfy_attack_ws *ws)
{
    if (!ws)
        return;
    vfy_bounds_free(ws->pt);
    if (ws->acts)
        for (int64_t k = 0; k < ws->net->n_layers; k++)
            vfy_free(ws->acts[k]);
    vfy_free(ws->acts);
    vfy_free(ws->scratch);
    vfy_free(ws->y);
    vfy_free(ws->g);
    vfy_free(ws->grad);
    vfy_free(ws->x);
    vfy_free(ws->best);
    vfy_free(ws->lo);
    vfy_free(ws->hi);
    vfy_free(ws->blo);
    vfy_free(ws->bhi);
    vfy_free(ws->cyrows);
    vfy_free(ws->negx);
    vfy_free(ws->starts);
    vfy_free(ws->x32);
    vfy_free(ws->y32);
    vfy_free(ws->s32);
    vfy_free(ws->start_m);
    vfy_free(ws->lb);
    vfy_free(ws);
}

vfy_attack_ws *vfy_attack_ws_create(const vfy_bound_ctx *ctx, const vfy_net *net, const vfy_spec *spec)
{
    vfy_attack_ws *ws = vfy_alloc(sizeof *ws);
    if (!ws)
        return NULL;
    ws->net = net;
    ws->ctx = ctx;
    int64_t w = vfy_net_max_width(net), nx = net->n_in, ny = net->n_out;
    int64_t rows = 1;
    for (int64_t c = 0; c < spec->n_cases; c++)
        if (spec->cases[c].n_rows > rows)
            rows = spec->cases[c].n_rows;
    ws->cap_rows = rows;
    ws->pt = vfy_bounds_create(ctx);
    ws->scratch = vfy_alloc_array((size_t)vfy_eval_ws_len(net), sizeof(double));
    ws->y = vfy_alloc_array((size_t)ny, sizeof(double));
    ws->acts = vfy_alloc_array((size_t)net->n_layers + 1, sizeof(double *));
    ws->g = vfy_alloc_array((size_t)ny, sizeof(double));
    ws->grad = vfy_alloc_array((size_t)nx, sizeof(double));
    ws->x = vfy_alloc_array((size_t)nx, sizeof(double));
    ws->best = vfy_alloc_array((size_t)nx, sizeof(double));
    ws->lo = vfy_alloc_array((size_t)nx, sizeof(double));
    ws->hi = vfy_alloc_array((size_t)nx, sizeof(double));
    ws->blo = vfy_alloc_array((size_t)nx, sizeof(double));
    ws->bhi = vfy_alloc_array((size_t)nx, sizeof(double));
    ws->cyrows = vfy_alloc_array((size_t)(rows * ny), sizeof(double));
    ws->lb = vfy_alloc_array((size_t)rows, sizeof(double));
    ws->negx = vfy_alloc_array((size_t)nx, sizeof(double));
    ws->starts = vfy_alloc_array((size_t)(ATTACK_MAX_STARTS * nx), sizeof(double));
    ws->start_m = vfy_alloc_array(ATTACK_MAX_STARTS, sizeof(double));
    ws->x32 = vfy_alloc_array((size_t)nx, sizeof(float));
    ws->y32 = vfy_alloc_array((size_t)ny, sizeof(float));
    ws->s32 = vfy_alloc_array((size_t)(2 * w), sizeof(float));
    if (!ws->pt || !ws->scratch || !ws->y || !ws->acts || !ws->g || !ws->grad || !ws->x ||
        !ws->best || !ws->lo || !ws->hi || !ws->blo || !ws->bhi || !ws->cyrows || !ws->lb ||
        !ws->negx || !ws->starts || !ws->start_m || !ws->x32 || !ws->y32 || !ws->s32)
        goto fail;
    for (int64_t k = 0; k < net->n_layers; k++)
        if (!(ws->acts[k] = vfy_alloc_array((size_t)net->layers[k].n_out, sizeof(double))))
            goto fail;
    return ws;
fail:
    vfy_attack_ws_free(ws);
    return NULL;
}

/* Row value cy·y + cx·x - rhs (rhs taken at its midpoint: search only). */
static double row_value(const vfy_row *r, int64_t ny, const double *y, int64_t nx, const double *x)
{
    double v = 0;
    for (int64_t j = 0; j < ny; j++)
        v += r->cy[j] * y[j];
    if (r->cx)
        for (int64_t j = 0; j < nx; j++)
            v += r->cx[j] * x[j];
    return v - 0.5 * (r->rhs_lo + r->rhs_hi);
}

double vfy_case_margin_y(const vfy_net *net, const vfy_spec *spec, int64_t c, const double *x,
                         const double *y)
{
    const vfy_case *cs = &spec->cases[c];
    double m = -INFINITY;
    for (int64_t i = 0; i < cs->n_rows; i++) {
        double v = row_value(&cs->rows[i], net->n_out, y, net->n_in, x);
        if (!(v <= m))
            m = v;
    }
    return m;
}

double vfy_case_margin(const vfy_net *net, const vfy_spec *spec, int64_t c, const double *x,
                       vfy_attack_ws *ws)
{
    if (spec->cases[c].n_rows == 0)
        return -INFINITY;
    vfy_eval_f64(net, x, ws->y, ws->scratch);
    return vfy_case_margin_y(net, spec, c, x, ws->y);
}

int vfy_float32_inside(double lo, double hi, double x, double *f)
{
    double v = x < lo ? lo : (x > hi ? hi : x);
    float g = (float)v;
    if ((double)g < lo)
        g = nextafterf(g, INFINITY);
    if ((double)g > hi)
        g = nextafterf(g, -INFINITY);
    *f = (double)g;
    return (double)g >= lo && (double)g <= hi;
}

/* Move *x to the float32 value a counterexample gives an input whose range is [lo, hi] (`range`
 * as vfy_box_cex_range returns it: 1 inside the real interval, 2 around it), and put into
 * [*blo, *bhi] the real points it stands for. When the range lies inside the real interval and
 * holds a float32 value: the one nearest to *x inside it, standing for itself. Otherwise the real
 * interval holds no float32 value (it lies between two consecutive ones): the float32 value
 * nearest the range's middle, one of those two (the nearest to the real interval but at a near
 * tie), which a float32 runtime receives for a value of it (the input's float32 rounding, the
 * semantics of claim 2 in docs/soundness.md); it stands for the hull of [lo, hi] and itself, which
 * contains a real point of the interval. 0 when there is none (past the float32 range). */
static int to_float_near(double *x, int range, double lo, double hi, double *blo, double *bhi)
{
    double in;
    if (range == 1 && vfy_float32_inside(lo, hi, *x, &in)) {
        *x = *blo = *bhi = in;
        return 1;
    }
    float f = (float)(0.5 * lo + 0.5 * hi); /* (no overflow; lo and hi are finite) */
    if (!isfinite(f))
        return 0;
    *x = (double)f;
    *blo = fmin(lo, *x);
    *bhi = fmax(hi, *x);
    return 1;
}

/* 1 when the row's upper bound on the box [lo, hi] (minus the lower bound of the negated row, by
 * `method` with ctx, whose layer bounds are in ws->pt) is <= rhs_lo (< for a strict row); 0
 * otherwise or on failure. */
static int row_holds_at(const vfy_bound_ctx *ctx, vfy_bound_method method, const vfy_row *r,
                        const double *lo, const double *hi, vfy_attack_ws *ws)
{
    int64_t nx = ws->net->n_in, ny = ws->net->n_out;
    double *neg = ws->cyrows;
    for (int64_t j = 0; j < ny; j++)
        neg[j] = -r->cy[j];
    double *negx = NULL;
    if (r->cx) {
        negx = ws->negx;
        for (int64_t j = 0; j < nx; j++)
            negx[j] = -r->cx[j];
    }
    double lb;
    if (vfy_bound_rows(ctx, method, lo, hi, ws->pt, 1, neg, negx, &lb, NULL, NULL) != VFY_OK)
        return 0;
    double ub = -lb;
    return r->strict ? ub < r->rhs_lo : ub <= r->rhs_lo;
}

int vfy_cex_confirm(const vfy_net *net, const vfy_spec *spec, int64_t c,
                    double *x, vfy_attack_ws *ws)
{
    const vfy_case *cs = &spec->cases[c];
    const vfy_box *bx = &spec->boxes[cs->box];
    int64_t nx = net->n_in, ny = net->n_out;
    for (int64_t j = 0; j < nx; j++) {
        double lo, hi;
        int range = vfy_box_cex_range(bx, j, &lo, &hi);
        if (!range || !to_float_near(&x[j], range, lo, hi, &ws->blo[j], &ws->bhi[j]))
            return 0;
    }
    if (cs->n_rows == 0)
        return 1;
    /* SOUND: (1) the float32 execution in ONNX order (ours, the printed Y) and (2) the double
     * execution satisfy every row, evaluated with upward rounding: cheap, so first. */
    for (int64_t j = 0; j < nx; j++)
        ws->x32[j] = (float)x[j];
    vfy_eval_f32(net, ws->x32, ws->y32, ws->s32);
    vfy_eval_f64(net, x, ws->y, ws->scratch);
    /* (on the model's own outputs: a Softmax's in float32 and in double; (3) needs no more: the
     * rows hold of the real outputs exactly when they hold of the logits, vfy_net_check_rows) */
    vfy_eval_out_f32(net, ws->y32);
    vfy_eval_out_f64(net, ws->y);
    for (int64_t i = 0; i < cs->n_rows; i++) {
        const vfy_row *r = &cs->rows[i];
        double u32 = 0, u64 = 0;
        for (int64_t j = 0; j < ny; j++) {
            u32 = vfy_add_up(u32, vfy_mul_up(r->cy[j], (double)ws->y32[j]));
            u64 = vfy_add_up(u64, vfy_mul_up(r->cy[j], ws->y[j]));
        }
        if (r->cx)
            for (int64_t j = 0; j < nx; j++) {
                u32 = vfy_add_up(u32, vfy_mul_up(r->cx[j], x[j]));
                u64 = vfy_add_up(u64, vfy_mul_up(r->cx[j], x[j]));
            }
        if (r->strict ? !(u32 < r->rhs_lo && u64 < r->rhs_lo)
                      : !(u32 <= r->rhs_lo && u64 <= r->rhs_lo))
            return 0;
    }
    /* (3) the real-valued network and every float32 execution, not only ours: CROWN on the point
     * box [x, x] with the search's context encloses the real output at x (our own rounding
     * charged) and, with the float-execution allowance, the output of any summation order and
     * kernel (blocked sums, FMA) the float semantics covers, as its proofs do. A row holds when its
     * upper bound (minus the lower bound of the negated row) is <= rhs_lo, the low end of the real
     * constant (< for a strict row). Ours is one of those executions; a runtime's may differ from
     * it by more than a checker's tolerance where the outputs are large (a random net whose output
     * is -3.9e6: ours -3879380, numpy's -3879377.5 against a threshold -3879377.56). CROWN, not
     * IBP: IBP widens each layer's allowance by the next layers' |W| (on ACAS Xu past a margin of
     * 3e-4). Real-only: the context is the real network's alone. An input whose real interval
     * holds no float32 value (to_float_near) makes the box [blo, bhi] wider than a point: its
     * real interval and x_j, so the rows hold for the real network at each real point of the
     * region there (one exists: vfy_box_cex_range) and for every float32 execution on x. */
    if (vfy_bound_layers(ws->ctx, VFY_BOUND_CROWN, ws->blo, ws->bhi, NULL, ws->pt) != VFY_OK)
        return 0;
    for (int64_t i = 0; i < cs->n_rows; i++)
        if (!row_holds_at(ws->ctx, VFY_BOUND_CROWN, &cs->rows[i], ws->blo, ws->bhi, ws))
            return 0;
    return 1;
}

/* Margin and its (sub)gradient at x: the gradient of the row attaining the max. */
/* The margin (max over the rows) at x and the gradient of the hinge sum  sum_i max(row_i(x), 0),
 * which is zero exactly where every row holds, and which moves all violated rows at once instead of
 * chasing the arg max (that oscillates between rows). */
static double margin_grad(const vfy_net *net, const vfy_spec *spec, int64_t c, const double *x,
                          vfy_attack_ws *ws, double *grad)
{
    const vfy_case *cs = &spec->cases[c];
    vfy_eval_forward_all(net, x, ws->acts, ws->scratch);
    const double *y = net->n_layers ? ws->acts[net->n_layers - 1] : x;
    int64_t ny = net->n_out, nx = net->n_in;
    double m = -INFINITY;
    if (grad)
        memset(ws->g, 0, (size_t)ny * sizeof(double));
    int any_cx = 0;
    for (int64_t i = 0; i < cs->n_rows; i++) {
        const vfy_row *r = &cs->rows[i];
        double v = row_value(r, ny, y, nx, x);
        if (!(v <= m))
            m = v;
        if (grad && v > 0) {
            for (int64_t j = 0; j < ny; j++)
                ws->g[j] += r->cy[j];
            any_cx |= r->cx != NULL;
        }
    }
    if (grad) {
        vfy_eval_grad(net, x, ws->acts, ws->g, grad, ws->scratch);
        if (any_cx)
            for (int64_t i = 0; i < cs->n_rows; i++) {
                const vfy_row *r = &cs->rows[i];
                if (r->cx && row_value(r, ny, y, nx, x) > 0)
                    for (int64_t j = 0; j < nx; j++)
                        grad[j] += r->cx[j];
            }
    }
    return m;
}

/* Projected signed-gradient descent on the margin from ws->x inside [ws->lo, ws->hi], the step
 * shrinking geometrically from frac0 of the box to a thousandth of that; 1 with the confirmed
 * point in x_out when a counterexample is found. It ends at the deadline dl (NULL: none), read
 * at every step (a step on a large net takes a tenth of a second or more). */
static int descend(const vfy_net *net, const vfy_spec *spec, int64_t c, int steps, double frac0,
                   const vfy_deadline *dl, vfy_attack_ws *ws, double *x_out)
{
    int64_t nx = net->n_in;
    double frac = frac0, decay = steps > 1 ? pow(1e-3, 1.0 / (steps - 1)) : 1.0;
    for (int it = 0; it < steps && !vfy_deadline_over(dl); it++, frac *= decay) {
        double m = margin_grad(net, spec, c, ws->x, ws, ws->grad);
        if (m <= 0) {
            memcpy(x_out, ws->x, (size_t)nx * sizeof(double));
            if (vfy_cex_confirm(net, spec, c, x_out, ws))
                return 1;
        }
        for (int64_t j = 0; j < nx; j++) {
            double gj = ws->grad[j];
            double step = frac * (ws->hi[j] - ws->lo[j]);
            double v = ws->x[j] - (gj > 0 ? step : (gj < 0 ? -step : 0.0));
            ws->x[j] = v < ws->lo[j] ? ws->lo[j] : (v > ws->hi[j] ? ws->hi[j] : v);
        }
    }
    double m = margin_grad(net, spec, c, ws->x, ws, NULL);
    if (m <= 0) {
        memcpy(x_out, ws->x, (size_t)nx * sizeof(double));
        if (vfy_cex_confirm(net, spec, c, x_out, ws))
            return 1;
    }
    return 0;
}

int vfy_attack_case(const vfy_net *net, const vfy_spec *spec, int64_t c,
                    const double *lo, const double *hi, int n_samples, int restarts, int steps,
                    vfy_rng *rng, const vfy_deadline *dl, vfy_attack_ws *ws, double *x_out)
{
    const vfy_case *cs = &spec->cases[c];
    const vfy_box *bx = &spec->boxes[cs->box];
    int64_t nx = net->n_in;
    for (int64_t j = 0; j < nx; j++) {
        double clo, chi;
        if (!vfy_box_cex_range(bx, j, &clo, &chi))
            return 0; /* no counterexample can be printed */
        ws->lo[j] = fmax(lo[j], clo);
        ws->hi[j] = fmin(hi[j], chi);
        if (!(ws->lo[j] <= ws->hi[j]))
            return 0; /* the domain misses the inner box */
    }
    if (cs->n_rows == 0) {
        for (int64_t j = 0; j < nx; j++)
            x_out[j] = 0.5 * (ws->lo[j] + ws->hi[j]);
        return vfy_cex_confirm(net, spec, c, x_out, ws);
    }
    if (restarts > ATTACK_MAX_STARTS)
        restarts = ATTACK_MAX_STARTS;
    /* 1. sampling (the centre first), keeping the `restarts` best points as PGD starts */
    int n_keep = 0;
    for (int s = 0; s < n_samples; s++) {
        if ((s & 63) == 0 && vfy_deadline_over(dl))
            return 0;
        /* odd samples snap each coordinate to a face of the box with probability 1/2: extreme
         * outputs, and so violations, are often found on the faces */
        for (int64_t j = 0; j < nx; j++) {
            double u = s == 0 ? 0.5 : vfy_rng_uniform(rng);
            if (s % 2 == 1) {
                double t = vfy_rng_uniform(rng);
                u = t < 0.25 ? 0.0 : (t < 0.5 ? 1.0 : u);
            }
            ws->x[j] = ws->lo[j] + u * (ws->hi[j] - ws->lo[j]);
        }
        double m = vfy_case_margin(net, spec, c, ws->x, ws);
        if (m <= 0) {
            memcpy(x_out, ws->x, (size_t)nx * sizeof(double));
            if (vfy_cex_confirm(net, spec, c, x_out, ws))
                return 1;
        }
        /* insert into the sorted list of starts */
        int pos = n_keep;
        while (pos > 0 && !(ws->start_m[pos - 1] <= m))
            pos--;
        if (pos >= restarts)
            continue;
        int last = n_keep < restarts ? n_keep : restarts - 1;
        for (int q = last; q > pos; q--) {
            ws->start_m[q] = ws->start_m[q - 1];
            memcpy(ws->starts + (size_t)q * (size_t)nx, ws->starts + (size_t)(q - 1) * (size_t)nx,
                   (size_t)nx * sizeof(double));
        }
        ws->start_m[pos] = m;
        memcpy(ws->starts + (size_t)pos * (size_t)nx, ws->x, (size_t)nx * sizeof(double));
        if (n_keep < restarts)
            n_keep++;
    }
    /* 2. descent from each start */
    for (int r = 0; r < n_keep; r++) {
        if (vfy_deadline_over(dl))
            return 0;
        memcpy(ws->x, ws->starts + (size_t)r * (size_t)nx, (size_t)nx * sizeof(double));
        if (descend(net, spec, c, steps, ATTACK_FIRST_STEP, dl, ws, x_out))
            return 1;
    }
    return 0;
}

int vfy_attack_from(const vfy_net *net, const vfy_spec *spec, int64_t c, const double *lo,
                    const double *hi, const double *x0, int steps, const vfy_deadline *dl,
                    vfy_attack_ws *ws, double *x_out)
{
    const vfy_case *cs = &spec->cases[c];
    const vfy_box *bx = &spec->boxes[cs->box];
    int64_t nx = net->n_in;
    if (vfy_deadline_over(dl))
        return 0;
    for (int64_t j = 0; j < nx; j++) {
        double clo, chi;
        if (!vfy_box_cex_range(bx, j, &clo, &chi))
            return 0;
        ws->lo[j] = fmax(lo[j], clo);
        ws->hi[j] = fmin(hi[j], chi);
        if (!(ws->lo[j] <= ws->hi[j]))
            return 0;
        ws->x[j] = fmin(fmax(x0[j], ws->lo[j]), ws->hi[j]);
    }
    if (cs->n_rows == 0) {
        memcpy(x_out, ws->x, (size_t)nx * sizeof(double));
        return vfy_cex_confirm(net, spec, c, x_out, ws);
    }
    return descend(net, spec, c, steps, LOCAL_FIRST_STEP, dl, ws, x_out);
}
