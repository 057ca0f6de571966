#include "widgets/async/topic_job.hpp"

#include <QCoreApplication>

#include "widgets/async/background.hpp"
#include "widgets/qt_text.hpp"

namespace bagscope::widgets {

QString problemText(const Result<TopicJobResult>& r) {
  if (!r) return toQt(r.error().describe());
  if (!r->unreadable) return {};
  const int n = static_cast<int>(r->unreadable);  // lupdate does not read a cast among translate()'s arguments
  return QCoreApplication::translate("TopicJob", "%n message(s) could not be read: %1", nullptr, n)
      .arg(r->firstProblem);
}

std::shared_ptr<Job> decodeTopic(std::shared_ptr<const session::Session> session, std::shared_ptr<Mailbox> mailbox,
                                 session::TopicId topic, std::function<void(qint64, const decode::Value&)> each,
                                 std::function<void(Result<TopicJobResult>)> done) {
  auto result = std::make_shared<TopicJobResult>();
  return startSessionJob(
      session, std::move(mailbox),
      [session, topic, each, result](StopToken stop, const session::ProgressFn& progress) -> Result<void> {
        const std::size_t total = std::max<std::size_t>(1, session->index(topic).size());
        std::size_t seen = 0;
        auto note = [&](const Error& e) {
          if (result->unreadable++ == 0) result->firstProblem = toQt(e.describe());
        };
        return session->forEach(
            {{topic}},
            [&](const session::Message& m) {
              if (++seen % 1024 == 0 && progress) progress(static_cast<double>(seen) / static_cast<double>(total));
              auto d = session->decoder(*m.connection);
              if (!d) return note(d.error()), true;
              auto v = (*d)->decode(m.bytes);
              if (!v) return note(v.error()), true;
              each(m.logTimeNs, *v);
              return true;
            },
            note, stop);
      },
      {},
      [result, done](Result<void> r) {
        if (!r) return done(std::move(r).error());
        done(*result);
      });
}

}  // namespace bagscope::widgets
