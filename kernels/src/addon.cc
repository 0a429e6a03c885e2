// addon.cc: the N-API binding of the compute core (node-addon-api), loaded by src/index.ts.
//
// Design. Two classes, NativeModel (a Model, model.h) and NativeDecoder (a KV-cache Decoder that
// keeps its model alive through a persistent reference), plus module functions for the thread
// pool and the memory limit. Every argument is validated on the JS thread before any work starts,
// and a bad one throws a TypeError/RangeError naming the argument, the tensor and the index (for
// tokens and frames also the sequence and position). Heavy calls (forward, backward, step,
// decoder step) copy their inputs and run in a Napi::AsyncWorker on the libuv pool, returning a
// Promise, so the event loop keeps turning while the core computes on its own thread pool. A
// failure inside the core (KernelError from check.h: memory limit, allocation, non-finite
// gradient) rejects that Promise; C++ exceptions are enabled and NODE_ADDON_API_CPP_EXCEPTIONS_ALL
// turns any std::exception escaping a synchronous method into a JS Error, so no bad call aborts
// the process. One call per model at a time: a model records the job it is running and any call
// made meanwhile throws (the TypeScript wrapper queues calls, so users never see that error).
#include <math.h>
#include <napi.h>
#include <stdio.h>
#include <string.h>

#include <string>
#include <vector>

#include "check.h"
#include "cpu_isa.h"
#include "cuda/ops_cuda.h"
#include "model.h"
#include "threadpool.h"

namespace {

struct AddonData {
  Napi::FunctionReference model_ctor;
  Napi::FunctionReference decoder_ctor;
};

std::string format(const char* fmt, ...) __attribute__((format(printf, 1, 2)));
std::string format(const char* fmt, ...) {
  char buf[1024];
  va_list ap;
  va_start(ap, fmt);
  vsnprintf(buf, sizeof(buf), fmt, ap);
  va_end(ap);
  return buf;
}

[[noreturn]] void throw_type(Napi::Env env, const std::string& msg) { throw Napi::TypeError::New(env, msg); }
[[noreturn]] void throw_range(Napi::Env env, const std::string& msg) { throw Napi::RangeError::New(env, msg); }
[[noreturn]] void throw_error(Napi::Env env, const std::string& msg) { throw Napi::Error::New(env, msg); }

const char* describe(double x) { return isnan(x) ? "NaN" : (x > 0 ? "Infinity" : "-Infinity"); }

// ---------------------------------------------------------------------------------------------
// argument readers

Napi::Object require_object(Napi::Env env, Napi::Value v, const char* what) {
  if (!v.IsObject() || v.IsArray()) throw_type(env, format("%s must be an object", what));
  return v.As<Napi::Object>();
}

// An integer-valued number in [lo, hi].
int64_t read_int(Napi::Env env, Napi::Value v, const char* what, int64_t lo, int64_t hi) {
  if (!v.IsNumber()) throw_type(env, format("%s must be a number", what));
  double x = v.As<Napi::Number>().DoubleValue();
  if (!isfinite(x) || floor(x) != x) throw_type(env, format("%s must be an integer, got %g", what, x));
  if (x < (double)lo || x > (double)hi) {
    throw_range(env, format("%s must be in [%lld, %lld], got %.17g", what, (long long)lo, (long long)hi, x));
  }
  return (int64_t)x;
}

double read_double(Napi::Env env, Napi::Object o, const char* key, const char* what, double fallback, double lo,
                   double hi) {
  Napi::Value v = o.Get(key);
  if (v.IsUndefined()) return fallback;
  if (!v.IsNumber()) throw_type(env, format("%s must be a number", what));
  double x = v.As<Napi::Number>().DoubleValue();
  if (!isfinite(x)) throw_range(env, format("%s must be finite, got %s", what, describe(x)));
  if (x < lo || x > hi) throw_range(env, format("%s must be in [%g, %g], got %g", what, lo, hi, x));
  return x;
}

bool read_bool(Napi::Env env, Napi::Object o, const char* key, const char* what) {
  Napi::Value v = o.Get(key);
  if (v.IsUndefined()) return false;
  if (!v.IsBoolean()) throw_type(env, format("%s must be a boolean", what));
  return v.As<Napi::Boolean>().Value();
}

// A typed array of the given type (undefined allowed when optional), its length checked.
template <typename T>
bool read_array(Napi::Env env, Napi::Value v, napi_typedarray_type type, const char* type_name, const char* what,
                size_t expected, const char* expected_text, bool optional, std::vector<T>* out) {
  if (v.IsUndefined() || v.IsNull()) {
    if (optional) return false;
    throw_type(env, format("%s is required (%s)", what, type_name));
  }
  if (!v.IsTypedArray() || v.As<Napi::TypedArray>().TypedArrayType() != type) {
    throw_type(env, format("%s must be %s", what, type_name));
  }
  Napi::TypedArrayOf<T> a = v.As<Napi::TypedArrayOf<T>>();
  if (a.ElementLength() != expected) {
    throw_range(env, format("%s has %zu elements, expected %s = %zu", what, a.ElementLength(), expected_text,
                            expected));
  }
  out->assign(a.Data(), a.Data() + expected);
  return true;
}

Napi::Float32Array to_float32(Napi::Env env, const float* data, size_t n) {
  Napi::Float32Array a = Napi::Float32Array::New(env, n);
  if (n > 0) memcpy(a.Data(), data, n * sizeof(float));
  return a;
}

// Finite check of a whole float buffer (parameters, optimizer state), naming the tensor.
void check_finite_params(Napi::Env env, const Model& m, const float* x, const char* what) {
  for (size_t i = 0; i < m.num_params; i++) {
    if (isfinite(x[i])) continue;
    int t = 0;
    while (t + 1 < NUM_PARAM_TENSORS && m.layout[t + 1].offset <= i) t++;
    throw_range(env, format("%s[%zu] (%s[%zu]) is %s", what, i, m.layout[t].name, i - m.layout[t].offset,
                            describe(x[i])));
  }
}

// ---------------------------------------------------------------------------------------------
// batches

struct Batch {
  int B = 0, T = 0;
  std::vector<int> tokens, targets;
  std::vector<float> frames, mask;
  bool has_frames = false, has_targets = false;
};

// Reads {tokens [B*T], frames? [slots*P], targets? [B*T], mask? [B*T]} for `op` (frames: one row
// per FRAME_TOKEN of tokens, in position order); B and T are given
// (forward) or derived from tokens.length / B (decoder step, seq_len = -1).
void read_batch(Napi::Env env, const char* op, Napi::Object o, const ModelConfig& c, int B, int T, int max_T,
                bool allow_targets, Batch* b) {
  std::string what = std::string(op) + ": batch.tokens";
  Napi::Value tv = o.Get("tokens");
  if (T < 0) {  // decoder: n positions per sequence from the length
    if (!tv.IsTypedArray() || tv.As<Napi::TypedArray>().TypedArrayType() != napi_int32_array) {
      throw_type(env, what + " must be an Int32Array");
    }
    size_t len = tv.As<Napi::TypedArray>().ElementLength();
    if (len == 0 || len % (size_t)B != 0) {
      throw_range(env, format("%s has %zu elements: expected a positive multiple of the decoder batch size %d",
                              what.c_str(), len, B));
    }
    T = (int)std::min(len / (size_t)B, (size_t)1 << 30);
  }
  if (T > max_T) {
    throw_range(env, format("%s: %d positions per sequence exceed the %d positions left in the context of %d", op, T,
                            max_T, c.context));
  }
  b->B = B, b->T = T;
  size_t N = (size_t)B * T;
  std::string shape = format("batchSize*seqLen = %d*%d", B, T);
  read_array<int>(env, tv, napi_int32_array, "an Int32Array", what.c_str(), N, shape.c_str(), false, &b->tokens);
  int frame_slots = 0;
  size_t first_frame = 0;
  for (size_t i = 0; i < N; i++) {
    int tok = b->tokens[i];
    if (tok == FRAME_TOKEN) {
      if (frame_slots++ == 0) first_frame = i;
      continue;
    }
    if (tok < 0 || tok >= c.vocab_size) {
      throw_range(env, format("%s[%zu] (sequence %zu, position %zu) = %d is out of range: token ids are 0..%d, or "
                              "-1 (FRAME_TOKEN) for a frame slot",
                              what.c_str(), i, i / T, i % T, tok, c.vocab_size - 1));
    }
  }
  std::string fwhat = std::string(op) + ": batch.frames";
  std::string fshape = format("frame slots*frameDim = %d*%d (one row per FRAME_TOKEN of batch.tokens)", frame_slots,
                              c.frame_dim);
  bool frames = read_array<float>(env, o.Get("frames"), napi_float32_array, "a Float32Array", fwhat.c_str(),
                                  (size_t)frame_slots * c.frame_dim, fshape.c_str(), true, &b->frames);
  if (frame_slots > 0 && !frames) {
    throw_type(env, format("%s is required: batch.tokens has %d frame slot(s), the first at index %zu", fwhat.c_str(),
                           frame_slots, first_frame));
  }
  b->has_frames = frame_slots > 0;
  if (b->has_frames) {
    size_t k = 0;  // the slot's row
    for (size_t i = 0; i < N; i++) {
      if (b->tokens[i] != FRAME_TOKEN) continue;
      for (int p = 0; p < c.frame_dim; p++) {
        float x = b->frames[k * c.frame_dim + p];
        if (!isfinite(x)) {
          throw_range(env, format("%s[%zu] (frame slot %zu: sequence %zu, position %zu, feature %d) is %s",
                                  fwhat.c_str(), k * c.frame_dim + p, k, i / T, i % T, p, describe(x)));
        }
      }
      k++;
    }
  }
  if (!allow_targets) return;
  std::string twhat = std::string(op) + ": batch.targets", mwhat = std::string(op) + ": batch.mask";
  bool targets = read_array<int>(env, o.Get("targets"), napi_int32_array, "an Int32Array", twhat.c_str(), N,
                                 shape.c_str(), true, &b->targets);
  bool mask = read_array<float>(env, o.Get("mask"), napi_float32_array, "a Float32Array", mwhat.c_str(), N,
                                shape.c_str(), true, &b->mask);
  if (mask && !targets) throw_type(env, mwhat + " was given without batch.targets");
  if (!targets) return;
  if (!mask) b->mask.assign(N, 1.0f);
  for (size_t i = 0; i < N; i++) {
    float w = b->mask[i];
    if (!isfinite(w) || w < 0.0f) {
      throw_range(env, format("%s[%zu] (sequence %zu, position %zu) = %g: mask weights must be finite and >= 0",
                              mwhat.c_str(), i, i / T, i % T, (double)w));
    }
    int t = b->targets[i];
    if (w > 0.0f && (t < 0 || t >= c.vocab_size)) {
      throw_range(env, format("%s[%zu] (sequence %zu, position %zu) = %d is out of range 0..%d at a masked-in "
                              "position",
                              twhat.c_str(), i, i / T, i % T, t, c.vocab_size - 1));
    }
  }
  b->has_targets = true;
}

// ---------------------------------------------------------------------------------------------
// classes

class NativeModel;

// A Promise-returning job on the libuv pool that holds its model busy and alive until it settles.
class Job : public Napi::AsyncWorker {
 public:
  Job(Napi::Env env, NativeModel* owner, const char* name);
  Napi::Promise Start() {
    Queue();
    return deferred_.Promise();
  }

 protected:
  virtual Napi::Value Result(Napi::Env env) = 0;
  void OnOK() override;
  void OnError(const Napi::Error& e) override;
  NativeModel* owner_;

 private:
  Napi::Promise::Deferred deferred_;
  Napi::ObjectReference keep_;
};

class NativeModel : public Napi::ObjectWrap<NativeModel> {
 public:
  static Napi::Function Init(Napi::Env env) {
    return DefineClass(env, "NativeModel",
                       {
                           InstanceAccessor<&NativeModel::GetNumParams>("numParams"),
                           InstanceAccessor<&NativeModel::GetConfig>("config"),
                           InstanceAccessor<&NativeModel::GetStep>("optimizerStep"),
                           InstanceMethod<&NativeModel::Layout>("layout"),
                           InstanceMethod<&NativeModel::GetParameters>("getParameters"),
                           InstanceMethod<&NativeModel::SetParameters>("setParameters"),
                           InstanceMethod<&NativeModel::GetGradients>("getGradients"),
                           InstanceMethod<&NativeModel::GetOptimizerState>("getOptimizerState"),
                           InstanceMethod<&NativeModel::SetOptimizerState>("setOptimizerState"),
                           InstanceMethod<&NativeModel::Forward>("forward"),
                           InstanceMethod<&NativeModel::Backward>("backward"),
                           InstanceMethod<&NativeModel::Logprobs>("logprobs"),
                           InstanceMethod<&NativeModel::PolicyForward>("policyForward"),
                           InstanceMethod<&NativeModel::Step>("step"),
                           InstanceMethod<&NativeModel::CreateDecoder>("createDecoder"),
                           InstanceMethod<&NativeModel::TrainingMemory>("trainingMemory"),
                       });
  }

  NativeModel(const Napi::CallbackInfo& info) : Napi::ObjectWrap<NativeModel>(info) {
    Napi::Env env = info.Env();
    Napi::Object o = require_object(env, info[0], "config");
    ModelConfig c;
    c.vocab_size = (int)read_int(env, o.Get("vocabSize"), "config.vocabSize", INT32_MIN, INT32_MAX);
    c.context = (int)read_int(env, o.Get("context"), "config.context", INT32_MIN, INT32_MAX);
    c.width = (int)read_int(env, o.Get("width"), "config.width", INT32_MIN, INT32_MAX);
    c.layers = (int)read_int(env, o.Get("layers"), "config.layers", INT32_MIN, INT32_MAX);
    c.heads = (int)read_int(env, o.Get("heads"), "config.heads", INT32_MIN, INT32_MAX);
    c.frame_dim = (int)read_int(env, o.Get("frameDim"), "config.frameDim", INT32_MIN, INT32_MAX);
    char err[256];
    if (!model_config_valid(&c, err, sizeof(err))) throw_range(env, std::string("config: ") + err);
    uint64_t seed = info[1].IsUndefined() ? 0 : (uint64_t)read_int(env, info[1], "seed", 0, 9007199254740991LL);
    model_init(&model_, &c, seed, kernel_ops_active());  // KernelError -> JS Error (memory limit, ...)
  }

  ~NativeModel() { model_free(&model_); }

  Model model_;
  const char* busy_ = nullptr;  // name of the running job

  void check_idle(Napi::Env env, const char* call) {
    if (busy_ != nullptr) {
      throw_error(env, format("%s: the model is busy with %s(); await it first (calls on one model and its "
                              "decoders do not overlap)",
                              call, busy_));
    }
  }

 private:
  Napi::Value GetNumParams(const Napi::CallbackInfo& info) {
    return Napi::Number::New(info.Env(), (double)model_.num_params);
  }

  Napi::Value GetStep(const Napi::CallbackInfo& info) { return Napi::Number::New(info.Env(), model_.step); }

  // trainingMemory(B, T, forwardOnly): { backend, needBytes, availableBytes, totalBytes } (null: no
  // limit).
  Napi::Value TrainingMemory(const Napi::CallbackInfo& info) {
    Napi::Env env = info.Env();
    int B = (int)read_int(env, info[0], "trainingMemory: batchSize", 1, INT32_MAX);
    int T = (int)read_int(env, info[1], "trainingMemory: seqLen", 1, model_.cfg.context);
    size_t available = 0, total = 0;
    model_.ops->mem_available(&available, &total);
    Napi::Object o = Napi::Object::New(env);
    o.Set("backend", Napi::String::New(env, model_.ops->name));
    bool forward_only = info.Length() > 2 && info[2].IsBoolean() && info[2].As<Napi::Boolean>().Value();
    o.Set("needBytes", Napi::Number::New(env, (double)model_training_bytes(&model_, B, T, forward_only ? 1 : 0)));
    o.Set("availableBytes", available == SIZE_MAX ? env.Null() : Napi::Number::New(env, (double)available));
    o.Set("totalBytes", total == SIZE_MAX ? env.Null() : Napi::Number::New(env, (double)total));
    return o;
  }

  Napi::Value GetConfig(const Napi::CallbackInfo& info) {
    Napi::Env env = info.Env();
    const ModelConfig& c = model_.cfg;
    Napi::Object o = Napi::Object::New(env);
    o.Set("vocabSize", c.vocab_size);
    o.Set("context", c.context);
    o.Set("width", c.width);
    o.Set("layers", c.layers);
    o.Set("heads", c.heads);
    o.Set("frameDim", c.frame_dim);
    return o;
  }

  Napi::Value Layout(const Napi::CallbackInfo& info) {
    Napi::Env env = info.Env();
    Napi::Array out = Napi::Array::New(env, NUM_PARAM_TENSORS);
    for (int i = 0; i < NUM_PARAM_TENSORS; i++) {
      const ParamInfo& p = model_.layout[i];
      Napi::Object t = Napi::Object::New(env);
      Napi::Array shape = Napi::Array::New(env, p.ndim);
      for (int d = 0; d < p.ndim; d++) shape.Set(d, Napi::Number::New(env, (double)p.shape[d]));
      t.Set("name", p.name);
      t.Set("shape", shape);
      t.Set("offset", Napi::Number::New(env, (double)p.offset));
      t.Set("size", Napi::Number::New(env, (double)p.numel));
      t.Set("weightDecay", Napi::Boolean::New(env, p.decay != 0));
      out.Set(i, t);
    }
    return out;
  }

  Napi::Value GetParameters(const Napi::CallbackInfo& info) {
    check_idle(info.Env(), "getParameters");
    Napi::Float32Array a = Napi::Float32Array::New(info.Env(), model_.num_params);
    model_get_params(&model_, a.Data());
    return a;
  }

  Napi::Value GetGradients(const Napi::CallbackInfo& info) {
    check_idle(info.Env(), "getGradients");
    Napi::Float32Array a = Napi::Float32Array::New(info.Env(), model_.num_params);
    model_get_grads(&model_, a.Data());
    return a;
  }

  void SetParameters(const Napi::CallbackInfo& info) {
    Napi::Env env = info.Env();
    check_idle(env, "setParameters");
    std::vector<float> p;
    read_array<float>(env, info[0], napi_float32_array, "a Float32Array", "setParameters: parameters",
                      model_.num_params, "numParams", false, &p);
    check_finite_params(env, model_, p.data(), "setParameters: parameters");
    model_set_params(&model_, p.data());
  }

  Napi::Value GetOptimizerState(const Napi::CallbackInfo& info) {
    Napi::Env env = info.Env();
    check_idle(env, "getOptimizerState");
    Napi::Float32Array m = Napi::Float32Array::New(env, model_.num_params);
    Napi::Float32Array v = Napi::Float32Array::New(env, model_.num_params);
    model_get_moments(&model_, m.Data(), v.Data());
    Napi::Object o = Napi::Object::New(env);
    o.Set("step", model_.step);
    o.Set("m", m);
    o.Set("v", v);
    return o;
  }

  void SetOptimizerState(const Napi::CallbackInfo& info) {
    Napi::Env env = info.Env();
    check_idle(env, "setOptimizerState");
    Napi::Object o = require_object(env, info[0], "setOptimizerState: state");
    int step = (int)read_int(env, o.Get("step"), "setOptimizerState: state.step", 0, INT32_MAX);
    std::vector<float> m, v;
    read_array<float>(env, o.Get("m"), napi_float32_array, "a Float32Array", "setOptimizerState: state.m",
                      model_.num_params, "numParams", false, &m);
    read_array<float>(env, o.Get("v"), napi_float32_array, "a Float32Array", "setOptimizerState: state.v",
                      model_.num_params, "numParams", false, &v);
    check_finite_params(env, model_, m.data(), "setOptimizerState: state.m");
    check_finite_params(env, model_, v.data(), "setOptimizerState: state.v");
    for (size_t i = 0; i < v.size(); i++) {
      if (v[i] < 0.0f) throw_range(env, format("setOptimizerState: state.v[%zu] = %g must be >= 0", i, (double)v[i]));
    }
    model_set_moments(&model_, m.data(), v.data(), step);
  }

  class ForwardJob : public Job {
   public:
    ForwardJob(Napi::Env env, NativeModel* owner, Batch&& b, bool want_logits, bool want_losses)
        : Job(env, owner, "forward"), b_(std::move(b)), want_logits_(want_logits), want_losses_(want_losses) {}
    void Execute() override {
      Model* m = &owner_->model_;
      const Batch& b = b_;
      model_forward(m, b.tokens.data(), b.has_frames ? b.frames.data() : NULL,
                    b.has_targets ? b.targets.data() : NULL, b.has_targets ? b.mask.data() : NULL, b.B, b.T);
      if (want_logits_) {
        logits_.resize((size_t)b.B * b.T * m->cfg.vocab_size);
        model_get_logits(m, logits_.data());
      }
      if (want_losses_ && b.has_targets) {
        losses_.resize((size_t)b.B * b.T);
        model_get_losses(m, losses_.data());
      }
      loss_ = m->loss, tokens_ = m->mask_sum, correct_ = (double)m->correct;
    }
    Napi::Value Result(Napi::Env env) override {
      Napi::Object o = Napi::Object::New(env);
      o.Set("loss", b_.has_targets ? Napi::Number::New(env, loss_) : env.Null());
      o.Set("tokens", Napi::Number::New(env, b_.has_targets ? tokens_ : 0.0));
      o.Set("correct", Napi::Number::New(env, b_.has_targets ? correct_ : 0.0));
      if (want_logits_) o.Set("logits", to_float32(env, logits_.data(), logits_.size()));
      if (want_losses_ && b_.has_targets) o.Set("losses", to_float32(env, losses_.data(), losses_.size()));
      return o;
    }

   private:
    Batch b_;
    bool want_logits_, want_losses_;
    std::vector<float> logits_, losses_;
    double loss_ = 0, tokens_ = 0, correct_ = 0;
  };

  Napi::Value Forward(const Napi::CallbackInfo& info) {
    Napi::Env env = info.Env();
    check_idle(env, "forward");
    Napi::Object o = require_object(env, info[0], "forward: batch");
    const ModelConfig& c = model_.cfg;
    int B = (int)read_int(env, o.Get("batchSize"), "forward: batch.batchSize", 1, 1 << 24);
    int T = (int)read_int(env, o.Get("seqLen"), "forward: batch.seqLen", 1, c.context);
    if ((int64_t)B * T > (1 << 24)) throw_range(env, format("forward: batch of %d x %d positions is too large", B, T));
    bool logits = false, losses = false;
    if (!info[1].IsUndefined()) {
      Napi::Object opt = require_object(env, info[1], "forward: options");
      logits = read_bool(env, opt, "logits", "forward: options.logits");
      losses = read_bool(env, opt, "losses", "forward: options.losses");
    }
    Batch b;
    read_batch(env, "forward", o, c, B, T, c.context, true, &b);
    return (new ForwardJob(env, this, std::move(b), logits, losses))->Start();
  }

  // ---- policy gradient (RL), SPEC §3 ----

  // Reads a batch whose targets are required (the tokens whose log-probabilities are taken).
  Batch read_target_batch(Napi::Env env, const char* op, Napi::Value v) {
    std::string what = std::string(op) + ": batch";
    Napi::Object o = require_object(env, v, what.c_str());
    const ModelConfig& c = model_.cfg;
    int B = (int)read_int(env, o.Get("batchSize"), (what + ".batchSize").c_str(), 1, 1 << 24);
    int T = (int)read_int(env, o.Get("seqLen"), (what + ".seqLen").c_str(), 1, c.context);
    if ((int64_t)B * T > (1 << 24)) throw_range(env, format("%s: batch of %d x %d positions is too large", op, B, T));
    Batch b;
    read_batch(env, op, o, c, B, T, c.context, true, &b);
    if (!b.has_targets) throw_type(env, what + ".targets is required (Int32Array): the tokens to score");
    return b;
  }

  class LogprobsJob : public Job {
   public:
    LogprobsJob(Napi::Env env, NativeModel* owner, Batch&& b, bool entropy)
        : Job(env, owner, "logprobs"), b_(std::move(b)), want_entropy_(entropy) {}
    void Execute() override {
      size_t N = (size_t)b_.B * b_.T;
      logp_.resize(N);
      if (want_entropy_) entropy_.resize(N);
      model_logprobs(&owner_->model_, b_.tokens.data(), b_.has_frames ? b_.frames.data() : NULL, b_.targets.data(),
                     b_.mask.data(), b_.B, b_.T, logp_.data(), want_entropy_ ? entropy_.data() : NULL);
    }
    Napi::Value Result(Napi::Env env) override {
      Napi::Object o = Napi::Object::New(env);
      o.Set("logprobs", to_float32(env, logp_.data(), logp_.size()));
      if (want_entropy_) o.Set("entropy", to_float32(env, entropy_.data(), entropy_.size()));
      return o;
    }

   private:
    Batch b_;
    bool want_entropy_;
    std::vector<float> logp_, entropy_;
  };

  Napi::Value Logprobs(const Napi::CallbackInfo& info) {
    Napi::Env env = info.Env();
    check_idle(env, "logprobs");
    Batch b = read_target_batch(env, "logprobs", info[0]);
    bool entropy = false;
    if (!info[1].IsUndefined()) {
      Napi::Object opt = require_object(env, info[1], "logprobs: options");
      entropy = read_bool(env, opt, "entropy", "logprobs: options.entropy");
    }
    return (new LogprobsJob(env, this, std::move(b), entropy))->Start();
  }

  // One of the names of `choices` (index), or `fallback` when undefined.
  static int read_choice(Napi::Env env, Napi::Object o, const char* key, const char* what,
                         const std::vector<const char*>& choices, int fallback) {
    Napi::Value v = o.Get(key);
    if (v.IsUndefined()) return fallback;
    std::string list;
    for (size_t i = 0; i < choices.size(); i++) list += (i ? ", \"" : "\"") + std::string(choices[i]) + "\"";
    if (!v.IsString()) throw_type(env, format("%s must be one of %s", what, list.c_str()));
    std::string x = v.As<Napi::String>().Utf8Value();
    for (size_t i = 0; i < choices.size(); i++)
      if (x == choices[i]) return (int)i;
    throw_range(env, format("%s must be one of %s, got \"%s\"", what, list.c_str(), x.c_str()));
  }

  // A per-token float tensor [B*T] whose values must be finite where the mask is > 0.
  static bool read_token_floats(Napi::Env env, Napi::Object o, const char* key, const Batch& b, bool optional,
                                std::vector<float>* out) {
    std::string what = std::string("policyLoss: options.") + key;
    size_t N = (size_t)b.B * b.T;
    std::string shape = format("batchSize*seqLen = %d*%d", b.B, b.T);
    if (!read_array<float>(env, o.Get(key), napi_float32_array, "a Float32Array", what.c_str(), N, shape.c_str(),
                           optional, out)) {
      return false;
    }
    for (size_t i = 0; i < N; i++) {
      if (b.mask[i] > 0.0f && !isfinite((*out)[i])) {
        throw_range(env, format("%s[%zu] (sequence %zu, position %zu) is %s at a masked-in position", what.c_str(), i,
                                i / b.T, i % b.T, describe((*out)[i])));
      }
    }
    return true;
  }

  struct PolicyInputs {
    std::vector<float> adv, old_logp, prox_logp, ref_logp;
    bool has_prox = false, has_ref = false;
    PolicyLossConfig cfg{};
  };

  class PolicyJob : public Job {
   public:
    PolicyJob(Napi::Env env, NativeModel* owner, Batch&& b, PolicyInputs&& in)
        : Job(env, owner, "policyLoss"), b_(std::move(b)), in_(std::move(in)) {}
    void Execute() override {
      model_policy_forward(&owner_->model_, b_.tokens.data(), b_.has_frames ? b_.frames.data() : NULL,
                           b_.targets.data(), b_.mask.data(), in_.adv.data(), in_.old_logp.data(),
                           in_.has_prox ? in_.prox_logp.data() : NULL, in_.has_ref ? in_.ref_logp.data() : NULL,
                           &in_.cfg, b_.B, b_.T, &r_);
    }
    Napi::Value Result(Napi::Env env) override {
      Napi::Object o = Napi::Object::New(env);
      o.Set("loss", r_.loss);
      o.Set("pgLoss", r_.pg_loss);
      o.Set("kl", r_.kl);
      o.Set("meanRatio", r_.ratio_mean);
      o.Set("clipFraction", r_.clip_fraction);
      o.Set("approxKl", r_.approx_kl);
      o.Set("entropy", r_.entropy);
      o.Set("behaviourWeight", r_.behav_weight_mean);
      o.Set("cappedFraction", r_.capped_fraction);
      o.Set("tokens", r_.tokens);
      o.Set("sequences", r_.sequences);
      return o;
    }

   private:
    Batch b_;
    PolicyInputs in_;
    PolicyLossResult r_{};
  };

  Napi::Value PolicyForward(const Napi::CallbackInfo& info) {
    Napi::Env env = info.Env();
    check_idle(env, "policyLoss");
    Batch b = read_target_batch(env, "policyLoss", info[0]);
    Napi::Object o = require_object(env, info[1], "policyLoss: options");
    PolicyInputs in;
    PolicyLossParams& p = in.cfg.params;
    // Defaults: SPEC §3 (PPO clip 0.2, KL coefficient 0.01, behaviour weight cap 5).
    p.clip_low = (float)read_double(env, o, "clipLow", "policyLoss: options.clipLow", 0.2, 0, 0.999999);
    p.clip_high = (float)read_double(env, o, "clipHigh", "policyLoss: options.clipHigh", 0.2, 0, 1e6);
    p.kl_coef = (float)read_double(env, o, "klCoef", "policyLoss: options.klCoef", 0.01, 0, 1e6);
    p.behav_cap = (float)read_double(env, o, "behaviourCap", "policyLoss: options.behaviourCap", 5.0, 1, 1e30);
    p.kl_estimator = read_choice(env, o, "klEstimator", "policyLoss: options.klEstimator", {"k1", "k2", "k3"}, KL_K3);
    p.cap_mode = read_choice(env, o, "capMode", "policyLoss: options.capMode", {"truncate", "mask"}, CAP_TRUNCATE);
    in.cfg.aggregation = read_choice(env, o, "aggregation", "policyLoss: options.aggregation",
                                     {"token-mean", "seq-mean-token-mean", "seq-mean-token-sum"}, AGG_TOKEN_MEAN);
    in.cfg.denominator = 0.0;
    if (!o.Get("denominator").IsUndefined()) {
      in.cfg.denominator = read_double(env, o, "denominator", "policyLoss: options.denominator", 0, 1e-30, 1e30);
    }
    // Advantages: one per sequence [B] (broadcast over its tokens) or one per token [B*T].
    size_t N = (size_t)b.B * b.T;
    Napi::Value av = o.Get("advantages");
    if (!av.IsTypedArray() || av.As<Napi::TypedArray>().TypedArrayType() != napi_float32_array) {
      throw_type(env, "policyLoss: options.advantages is required (Float32Array of batchSize or batchSize*seqLen)");
    }
    size_t alen = av.As<Napi::TypedArray>().ElementLength();
    if (alen == (size_t)b.B && alen != N) {
      std::vector<float> per_seq;
      read_array<float>(env, av, napi_float32_array, "a Float32Array", "policyLoss: options.advantages", alen,
                        "batchSize", false, &per_seq);
      for (size_t s = 0; s < per_seq.size(); s++) {
        if (!isfinite(per_seq[s])) {
          throw_range(env, format("policyLoss: options.advantages[%zu] (sequence %zu) is %s", s, s,
                                  describe(per_seq[s])));
        }
      }
      in.adv.resize(N);
      for (size_t i = 0; i < N; i++) in.adv[i] = per_seq[i / b.T];
    } else if (alen == N) {
      read_token_floats(env, o, "advantages", b, false, &in.adv);
    } else {
      throw_range(env, format("policyLoss: options.advantages has %zu elements, expected batchSize = %d (one per "
                              "sequence) or batchSize*seqLen = %zu (one per token)",
                              alen, b.B, N));
    }
    read_token_floats(env, o, "oldLogprobs", b, false, &in.old_logp);
    in.has_prox = read_token_floats(env, o, "proxLogprobs", b, true, &in.prox_logp);
    in.has_ref = read_token_floats(env, o, "refLogprobs", b, true, &in.ref_logp);
    if (p.kl_coef > 0.0f && !in.has_ref) {
      throw_type(env, format("policyLoss: options.refLogprobs is required when klCoef > 0 (klCoef = %g): the frozen "
                             "reference policy's log-probabilities",
                             (double)p.kl_coef));
    }
    return (new PolicyJob(env, this, std::move(b), std::move(in)))->Start();
  }

  class BackwardJob : public Job {
   public:
    BackwardJob(Napi::Env env, NativeModel* owner, bool accumulate)
        : Job(env, owner, "backward"), accumulate_(accumulate) {}
    void Execute() override { model_backward(&owner_->model_, accumulate_); }
    Napi::Value Result(Napi::Env env) override { return env.Undefined(); }

   private:
    bool accumulate_;
  };

  Napi::Value Backward(const Napi::CallbackInfo& info) {
    Napi::Env env = info.Env();
    check_idle(env, "backward");
    bool accumulate = false;
    if (!info[0].IsUndefined()) {
      accumulate = read_bool(env, require_object(env, info[0], "backward: options"), "accumulate",
                             "backward: options.accumulate");
    }
    if (model_.state != 2) {
      throw_error(env, "backward: no forward with targets since the last step or parameter change; call forward() "
                       "with batch.targets (or policyLoss) first");
    }
    return (new BackwardJob(env, this, accumulate))->Start();
  }

  class StepJob : public Job {
   public:
    StepJob(Napi::Env env, NativeModel* owner, AdamWConfig opt) : Job(env, owner, "step"), opt_(opt) {}
    void Execute() override { model_update(&owner_->model_, &opt_, &res_); }
    Napi::Value Result(Napi::Env env) override {
      Napi::Object o = Napi::Object::New(env);
      o.Set("gradNorm", Napi::Number::New(env, res_.grad_norm));
      o.Set("clipScale", Napi::Number::New(env, res_.scale));
      o.Set("step", Napi::Number::New(env, res_.step));
      return o;
    }

   private:
    AdamWConfig opt_;
    UpdateResult res_{};
  };

  Napi::Value Step(const Napi::CallbackInfo& info) {
    Napi::Env env = info.Env();
    check_idle(env, "step");
    Napi::Object o = require_object(env, info[0], "step: options");
    AdamWConfig opt;
    if (o.Get("lr").IsUndefined()) throw_type(env, "step: options.lr is required");
    opt.lr = (float)read_double(env, o, "lr", "step: options.lr", 0, 0, 1e3);
    opt.beta1 = (float)read_double(env, o, "beta1", "step: options.beta1", 0.9, 0, 0.999999);
    opt.beta2 = (float)read_double(env, o, "beta2", "step: options.beta2", 0.95, 0, 0.999999);
    opt.eps = (float)read_double(env, o, "eps", "step: options.eps", 1e-8, 1e-30, 1);
    opt.weight_decay = (float)read_double(env, o, "weightDecay", "step: options.weightDecay", 0.0, 0, 1e3);
    opt.max_grad_norm = (float)read_double(env, o, "maxGradNorm", "step: options.maxGradNorm", 0.0, 0, 1e30);
    return (new StepJob(env, this, opt))->Start();
  }

  Napi::Value CreateDecoder(const Napi::CallbackInfo& info) {
    Napi::Env env = info.Env();
    check_idle(env, "createDecoder");
    int B = (int)read_int(env, info[0], "createDecoder: batchSize", 1, 1 << 16);
    AddonData* data = env.GetInstanceData<AddonData>();
    return data->decoder_ctor.New({Value(), Napi::Number::New(env, B)});
  }
};

Job::Job(Napi::Env env, NativeModel* owner, const char* name)
    : Napi::AsyncWorker(env, name), owner_(owner), deferred_(Napi::Promise::Deferred::New(env)) {
  keep_ = Napi::Persistent(owner->Value());
  owner->busy_ = name;
}

void Job::OnOK() {
  owner_->busy_ = nullptr;
  deferred_.Resolve(Result(Env()));
}

void Job::OnError(const Napi::Error& e) {
  owner_->busy_ = nullptr;
  deferred_.Reject(e.Value());
}

class NativeDecoder : public Napi::ObjectWrap<NativeDecoder> {
 public:
  static Napi::Function Init(Napi::Env env) {
    return DefineClass(env, "NativeDecoder",
                       {
                           InstanceAccessor<&NativeDecoder::GetPosition>("position"),
                           InstanceAccessor<&NativeDecoder::GetBatchSize>("batchSize"),
                           InstanceMethod<&NativeDecoder::Reset>("reset"),
                           InstanceMethod<&NativeDecoder::DoStep>("step"),
                       });
  }

  NativeDecoder(const Napi::CallbackInfo& info) : Napi::ObjectWrap<NativeDecoder>(info) {
    Napi::Env env = info.Env();
    AddonData* data = env.GetInstanceData<AddonData>();
    if (!info[0].IsObject() || !info[0].As<Napi::Object>().InstanceOf(data->model_ctor.Value())) {
      throw_type(env, "NativeDecoder: create decoders with model.createDecoder(batchSize)");
    }
    owner_ = NativeModel::Unwrap(info[0].As<Napi::Object>());
    int B = (int)read_int(env, info[1], "createDecoder: batchSize", 1, 1 << 16);
    decoder_init(&dec_, &owner_->model_, B);
    model_ref_ = Napi::Persistent(info[0].As<Napi::Object>());
  }

  ~NativeDecoder() { decoder_free(&dec_); }

  Decoder dec_{};
  NativeModel* owner_ = nullptr;

 private:
  Napi::ObjectReference model_ref_;  // the model outlives its decoders

  Napi::Value GetPosition(const Napi::CallbackInfo& info) { return Napi::Number::New(info.Env(), dec_.pos); }
  Napi::Value GetBatchSize(const Napi::CallbackInfo& info) { return Napi::Number::New(info.Env(), dec_.B); }

  void Reset(const Napi::CallbackInfo& info) {
    owner_->check_idle(info.Env(), "decoder.reset");
    decoder_reset(&dec_);
  }

  class DecodeJob : public Job {
   public:
    DecodeJob(Napi::Env env, NativeModel* owner, NativeDecoder* dec, Batch&& b)
        : Job(env, owner, "decoder.step"), dec_(dec), b_(std::move(b)) {
      keep_dec_ = Napi::Persistent(dec->Value());
    }
    void Execute() override {
      logits_.resize((size_t)b_.B * dec_->owner_->model_.cfg.vocab_size);
      decoder_step(&dec_->dec_, b_.tokens.data(), b_.has_frames ? b_.frames.data() : NULL, b_.T, logits_.data());
    }
    Napi::Value Result(Napi::Env env) override { return to_float32(env, logits_.data(), logits_.size()); }

   private:
    NativeDecoder* dec_;
    Batch b_;
    std::vector<float> logits_;
    Napi::ObjectReference keep_dec_;
  };

  Napi::Value DoStep(const Napi::CallbackInfo& info) {
    Napi::Env env = info.Env();
    owner_->check_idle(env, "decoder.step");
    Napi::Object o = require_object(env, info[0], "decoder.step: input");
    const ModelConfig& c = owner_->model_.cfg;
    Batch b;
    read_batch(env, "decoder.step", o, c, dec_.B, -1, c.context - dec_.pos, false, &b);
    return (new DecodeJob(env, owner_, this, std::move(b)))->Start();
  }
};

// ---------------------------------------------------------------------------------------------
// module functions

void SetThreads(const Napi::CallbackInfo& info) {
  pool_set_threads((int)read_int(info.Env(), info[0], "setThreads: threads", 0, 256));
}

Napi::Value GetThreads(const Napi::CallbackInfo& info) { return Napi::Number::New(info.Env(), pool_get_threads()); }

void SetMemoryLimit(const Napi::CallbackInfo& info) {
  kernel_set_memory_limit((size_t)read_int(info.Env(), info[0], "setMemoryLimit: bytes", 0, 9007199254740991LL));
}

Napi::Value MemoryInUse(const Napi::CallbackInfo& info) {
  return Napi::Number::New(info.Env(), (double)kernel_memory_in_use());
}

Napi::Value ActiveBackend(const Napi::CallbackInfo& info) {
  return Napi::String::New(info.Env(), kernel_ops_active()->name);
}

// useBackend("cpu" | "cuda"): the table of models created from now on (KernelError -> JS Error).
Napi::Value UseBackend(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  if (info.Length() != 1 || !info[0].IsString()) throw Napi::TypeError::New(env, "useBackend(name: 'cpu' | 'cuda')");
  kernel_ops_use(info[0].As<Napi::String>().Utf8Value().c_str());
  return env.Undefined();
}

// cudaProbe(): { available, reason, device } (loads the CUDA backend library once).
Napi::Value CudaProbe(const Napi::CallbackInfo& info) {
  Napi::Env env = info.Env();
  const CudaDeviceInfo* dev = nullptr;
  const char* reason = nullptr;
  const KernelOps* ops = cuda_backend_probe(&dev, &reason);
  Napi::Object out = Napi::Object::New(env);
  out.Set("available", Napi::Boolean::New(env, ops != nullptr));
  out.Set("reason", reason ? Napi::Value(Napi::String::New(env, reason)) : env.Null());
  if (dev) {
    Napi::Object d = Napi::Object::New(env);
    d.Set("name", Napi::String::New(env, dev->name));
    d.Set("totalBytes", Napi::Number::New(env, (double)dev->total_bytes));
    d.Set("freeBytes", Napi::Number::New(env, (double)dev->free_bytes));
    d.Set("multiprocessors", Napi::Number::New(env, dev->multiprocessors));
    d.Set("computeCapability", Napi::String::New(env, std::to_string(dev->major) + "." + std::to_string(dev->minor)));
    d.Set("emulated", Napi::Boolean::New(env, dev->emulated != 0));
    d.Set("matmul", Napi::String::New(env, dev->matmul));
    out.Set("device", d);
  } else {
    out.Set("device", env.Null());
  }
  return out;
}

Napi::Object Init(Napi::Env env, Napi::Object exports) {
  AddonData* data = new AddonData();
  Napi::Function model = NativeModel::Init(env);
  Napi::Function decoder = NativeDecoder::Init(env);
  data->model_ctor = Napi::Persistent(model);
  data->decoder_ctor = Napi::Persistent(decoder);
  env.SetInstanceData<AddonData>(data);  // deleted at environment teardown
  exports.Set("NativeModel", model);
  exports.Set("NativeDecoder", decoder);
  exports.Set("setThreads", Napi::Function::New<SetThreads>(env, "setThreads"));
  exports.Set("getThreads", Napi::Function::New<GetThreads>(env, "getThreads"));
  exports.Set("setMemoryLimit", Napi::Function::New<SetMemoryLimit>(env, "setMemoryLimit"));
  exports.Set("memoryInUse", Napi::Function::New<MemoryInUse>(env, "memoryInUse"));
  exports.Set("FRAME_TOKEN", Napi::Number::New(env, FRAME_TOKEN));
  exports.Set("activeBackend", Napi::Function::New<ActiveBackend>(env, "activeBackend"));
  exports.Set("useBackend", Napi::Function::New<UseBackend>(env, "useBackend"));
  exports.Set("cudaProbe", Napi::Function::New<CudaProbe>(env, "cudaProbe"));
  exports.Set("cpuIsa", Napi::String::New(env, cpu_isa_note()));
  // Park-and-join the pool's threads when this environment goes away (worker_threads, exit).
  napi_add_env_cleanup_hook(env, [](void*) { pool_shutdown(); }, nullptr);
  return exports;
}

}  // namespace

NODE_API_MODULE(paravt_kernels, Init)
