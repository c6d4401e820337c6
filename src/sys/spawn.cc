#include "sys/spawn.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <string_view>

extern char** environ;

namespace iobench::sys {

Result<SpawnResult> RunCaptured(const std::vector<std::string>& argv, const std::string& cwd,
                                const std::string& what, size_t keep) {
  if (argv.empty()) return Status::Internal(what + ": nothing to run");
  int fds[2];
  if (pipe2(fds, O_CLOEXEC) != 0) return ErrnoStatus(what + ": pipe");
  posix_spawn_file_actions_t fa;
  posix_spawn_file_actions_init(&fa);
  posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_adddup2(&fa, fds[1], 1);
  posix_spawn_file_actions_adddup2(&fa, fds[1], 2);
  if (!cwd.empty()) posix_spawn_file_actions_addchdir_np(&fa, cwd.c_str());
  std::vector<std::string> args = argv;
  std::vector<char*> cargv;
  for (auto& a : args) cargv.push_back(a.data());
  cargv.push_back(nullptr);
  posix_spawnattr_t attr;
  posix_spawnattr_init(&attr);
  sigset_t none, defaults;
  sigemptyset(&none);
  sigemptyset(&defaults);
  for (int sig : {SIGINT, SIGTERM, SIGQUIT, SIGHUP, SIGPIPE, SIGXFSZ, SIGXCPU})
    sigaddset(&defaults, sig);
  posix_spawnattr_setsigmask(&attr, &none);
  posix_spawnattr_setsigdefault(&attr, &defaults);
  posix_spawnattr_setflags(&attr, POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF);
  pid_t pid = -1;
  const int rc = posix_spawn(&pid, args[0].c_str(), &fa, &attr, cargv.data(), environ);
  posix_spawnattr_destroy(&attr);
  posix_spawn_file_actions_destroy(&fa);
  close(fds[1]);
  if (rc != 0) {
    close(fds[0]);
    return ErrnoStatus(what + ": run " + args[0], rc);
  }
  SpawnResult r;
  std::string tail;  // past the first `keep` bytes: the last `keep` of them
  uint64_t past_head = 0;
  char buf[65536];
  for (;;) {
    const ssize_t n = read(fds[0], buf, sizeof(buf));
    if (n > 0) {
      std::string_view got(buf, static_cast<size_t>(n));
      if (keep == 0 || r.output.size() < keep) {
        const size_t take = keep == 0 ? got.size() : std::min(got.size(), keep - r.output.size());
        r.output.append(got.substr(0, take));
        got.remove_prefix(take);
      }
      past_head += got.size();
      tail.append(got);
      if (tail.size() >= 2 * keep + sizeof(buf)) tail.erase(0, tail.size() - keep);
    } else if (n == 0 || errno != EINTR) {
      break;
    }
  }
  close(fds[0]);
  if (tail.size() > keep) tail.erase(0, tail.size() - keep);
  r.cut_at = r.output.size();
  r.dropped = past_head - tail.size();
  r.output += tail;
  int ws = 0;
  while (waitpid(pid, &ws, 0) < 0)
    if (errno != EINTR) return ErrnoStatus(what + ": waitpid");
  if (WIFEXITED(ws))
    r.exit_code = WEXITSTATUS(ws);
  else if (WIFSIGNALED(ws))
    r.exit_code = 128 + WTERMSIG(ws);
  return r;
}

}  // namespace iobench::sys
