// A std::vector that leaves its elements uninitialized when it grows (default-initialization), for
// buffers every element of which is written before it is read: the KV cache, the cross-attention
// memory, the encoder's scratch. Emscripten's memset is a scalar loop; zero-filling those buffers
// took 2% of a greedy translation in the relaxed build (2026-11-30). Values given explicitly
// (assign(n, v), resize(n, v)) are set as usual.
#pragma once

#include <memory>
#include <new>
#include <utility>
#include <vector>

namespace crossattn {

/// std::allocator whose value-less construct() default-initializes (no zeros for float).
template <typename T>
struct DefaultInitAllocator : std::allocator<T> {
  template <typename U>
  struct rebind {
    using other = DefaultInitAllocator<U>;
  };
  DefaultInitAllocator() = default;
  template <typename U>
  DefaultInitAllocator(const DefaultInitAllocator<U>&) noexcept {}
  template <typename U>
  void construct(U* p) noexcept {
    ::new (static_cast<void*>(p)) U;
  }
  template <typename U, typename... Args>
  void construct(U* p, Args&&... args) {
    ::new (static_cast<void*>(p)) U(std::forward<Args>(args)...);
  }
};

template <typename T>
using UninitializedVector = std::vector<T, DefaultInitAllocator<T>>;

}  // namespace crossattn
