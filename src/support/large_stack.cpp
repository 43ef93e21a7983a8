#include "support/large_stack.hpp"

#include <pthread.h>

#include <iostream>
#include <new>
#include <string>

#include "support/internal_error.hpp"

namespace vx {

int with_large_stack(const std::function<int()>& body, ErrorFormat format) {
  struct Call {
    const std::function<int()>* body;
    ErrorFormat format;
    int result = 0;
  } call{&body, format};
  pthread_attr_t attr;
  pthread_attr_init(&attr);
  pthread_attr_setstacksize(&attr, size_t(1) << 30);  // virtual: pages are touched only if used
  pthread_t thread;
  auto trampoline = [](void* p) -> void* {
    auto* c = static_cast<Call*>(p);
    try {
      c->result = (*c->body)();
    } catch (const std::bad_alloc&) {
      render_plain_error(std::cerr, "out of memory", c->format);
      c->result = 101;
    } catch (const InternalError& e) {  // its text says where (support/internal_error.hpp)
      render_plain_error(std::cerr, e.what(), c->format);
      c->result = 70;
    } catch (const std::exception& e) {  // a library's exception that vx let escape
      const std::string text =
          std::string("internal error: ") + e.what() + " (this is a bug in vx)";
      notify_internal_error(text);
      render_plain_error(std::cerr, text, c->format);
      c->result = 70;
    }
    return nullptr;
  };
  if (pthread_create(&thread, &attr, trampoline, &call) != 0) {
    pthread_attr_destroy(&attr);
    return body();
  }
  pthread_join(thread, nullptr);
  pthread_attr_destroy(&attr);
  return call.result;
}

}  // namespace vx
