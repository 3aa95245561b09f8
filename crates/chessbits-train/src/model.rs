//! The float network `(768 → N)×2 → 1` with SCReLU: forward pass, backward pass, loss and
//! quantisation into the engine's [`Network`] (the arithmetic is documented in
//! [`chessbits_engine::eval::nnue`]).

use chessbits_engine::eval::nnue::{mirror_feature, Network, INPUTS, QA, QB, SCALE, WEIGHT_CLIP};
use chessbits_engine::rng::SplitMix64;

/// The float parameters, all in one vector (so that gradients and Adam's moments are plain
/// vectors of the same layout): `768·N` feature weights (input-major), `N` feature biases, `2N`
/// output weights (side to move first), one output bias.
#[derive(Clone, Debug, PartialEq)]
pub struct Params {
    /// The hidden width `N`.
    pub hidden: usize,
    /// The parameters in the layout above.
    pub data: Vec<f32>,
}

/// The logistic function.
pub fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// The training target of a position: `λ·σ(score/SCALE) + (1−λ)·result`.
pub fn target(score: i32, result: f32, lambda: f32) -> f32 {
    lambda * sigmoid(score as f32 / SCALE as f32) + (1.0 - lambda) * result
}

fn screlu(x: f32) -> f32 {
    let c = x.clamp(0.0, 1.0);
    c * c
}

/// Scratch space of one forward pass: the two accumulators.
#[derive(Clone, Debug)]
pub struct Scratch {
    us: Vec<f32>,
    them: Vec<f32>,
    d_us: Vec<f32>,
    d_them: Vec<f32>,
}

impl Scratch {
    /// Scratch space for width `hidden`.
    pub fn new(hidden: usize) -> Scratch {
        Scratch {
            us: vec![0.0; hidden],
            them: vec![0.0; hidden],
            d_us: vec![0.0; hidden],
            d_them: vec![0.0; hidden],
        }
    }
}

impl Params {
    /// The number of parameters of width `hidden`.
    pub fn len_for(hidden: usize) -> usize {
        INPUTS * hidden + 3 * hidden + 1
    }

    /// Freshly initialised parameters from `seed`: feature weights uniform in ±0.15 (about 30
    /// active inputs put the accumulators in SCReLU's working range), output weights uniform in
    /// ±1/√(2N), biases 0.
    pub fn init(hidden: usize, seed: u64) -> Params {
        let mut rng = SplitMix64::new(seed);
        let mut uniform = |a: f32| ((rng.next_u64() >> 40) as f32 / (1u64 << 24) as f32 * 2.0 - 1.0) * a;
        let mut data = vec![0.0; Params::len_for(hidden)];
        for w in &mut data[..INPUTS * hidden] {
            *w = uniform(0.15);
        }
        let a = 1.0 / ((2 * hidden) as f32).sqrt();
        let out = INPUTS * hidden + hidden;
        for w in &mut data[out..out + 2 * hidden] {
            *w = uniform(a);
        }
        Params { hidden, data }
    }

    fn out_offset(&self) -> usize {
        INPUTS * self.hidden + self.hidden
    }

    /// The float output (the evaluation divided by `SCALE`) for the side to move's features
    /// `features`; `scratch` keeps the accumulators for [`Params::backward`].
    pub fn forward(&self, features: &[u16], scratch: &mut Scratch) -> f32 {
        let n = self.hidden;
        let bias = &self.data[INPUTS * n..INPUTS * n + n];
        scratch.us.copy_from_slice(bias);
        scratch.them.copy_from_slice(bias);
        for &f in features {
            let f = usize::from(f);
            let g = mirror_feature(f);
            for (a, &w) in scratch.us.iter_mut().zip(&self.data[f * n..(f + 1) * n]) {
                *a += w;
            }
            for (a, &w) in scratch.them.iter_mut().zip(&self.data[g * n..(g + 1) * n]) {
                *a += w;
            }
        }
        let o = self.out_offset();
        let (w_us, rest) = self.data[o..].split_at(n);
        let (w_them, out_bias) = rest.split_at(n);
        let mut out = out_bias[0];
        for (&a, &w) in scratch.us.iter().zip(w_us) {
            out += screlu(a) * w;
        }
        for (&a, &w) in scratch.them.iter().zip(w_them) {
            out += screlu(a) * w;
        }
        out
    }

    /// Adds to `grad` (same layout as the parameters) `d_out` times the gradient of the output
    /// of the last [`Params::forward`] on `features` (with its `scratch`).
    pub fn backward(&self, features: &[u16], scratch: &mut Scratch, d_out: f32, grad: &mut [f32]) {
        let n = self.hidden;
        let o = self.out_offset();
        // The output layer, and the error at each accumulator (reusing the forward's values).
        let Scratch { us, them, d_us, d_them } = scratch;
        for i in 0..n {
            let (a, b) = (us[i], them[i]);
            grad[o + i] += d_out * screlu(a);
            grad[o + n + i] += d_out * screlu(b);
            // SCReLU'(x) = 2x on (0, 1), 0 outside.
            d_us[i] = if a > 0.0 && a < 1.0 {
                d_out * self.data[o + i] * 2.0 * a
            } else {
                0.0
            };
            d_them[i] = if b > 0.0 && b < 1.0 {
                d_out * self.data[o + n + i] * 2.0 * b
            } else {
                0.0
            };
        }
        grad[o + 2 * n] += d_out;
        let bias = INPUTS * n;
        for i in 0..n {
            grad[bias + i] += d_us[i] + d_them[i];
        }
        // Only the active inputs' rows of the feature transformer get a gradient.
        for &f in features {
            let f = usize::from(f);
            let g = mirror_feature(f);
            for (gr, &d) in grad[f * n..(f + 1) * n].iter_mut().zip(d_us.iter()) {
                *gr += d;
            }
            for (gr, &d) in grad[g * n..(g + 1) * n].iter_mut().zip(d_them.iter()) {
                *gr += d;
            }
        }
    }

    /// The loss of one position, `(σ(out) − target)²`, and its derivative in `out`.
    pub fn loss(out: f32, target: f32) -> (f32, f32) {
        let p = sigmoid(out);
        let e = p - target;
        (e * e, 2.0 * e * p * (1.0 - p))
    }

    /// Clips every parameter but the output bias to ±[`WEIGHT_CLIP`] (keeps the quantised
    /// accumulators inside `i16`).
    pub fn clip(&mut self) {
        let last = self.data.len() - 1;
        for w in &mut self.data[..last] {
            *w = w.clamp(-WEIGHT_CLIP, WEIGHT_CLIP);
        }
    }

    /// The quantised network (`QA`, `QB`, `SCALE` of the engine's defaults; rounding to nearest,
    /// saturating).
    pub fn quantise(&self) -> Network {
        let n = self.hidden;
        let q16 = |w: f32, q: i32| (w * q as f32).round().clamp(i16::MIN as f32, i16::MAX as f32) as i16;
        let mut net = Network::zeroed(n);
        for (q, &w) in net.ft_weights.iter_mut().zip(&self.data[..INPUTS * n]) {
            *q = q16(w, QA);
        }
        for (q, &w) in net.ft_biases.iter_mut().zip(&self.data[INPUTS * n..INPUTS * n + n]) {
            *q = q16(w, QA);
        }
        let o = self.out_offset();
        for (q, &w) in net.out_weights.iter_mut().zip(&self.data[o..o + 2 * n]) {
            *q = q16(w, QB);
        }
        net.out_bias = (f64::from(self.data[o + 2 * n]) * f64::from(QA * QB)).round() as i32;
        net
    }

    /// The float evaluation in centipawns (the output times `SCALE`).
    pub fn eval_cp(&self, features: &[u16]) -> f32 {
        self.forward(features, &mut Scratch::new(self.hidden)) * SCALE as f32
    }
}
