#pragma once
// `check --from` with text: what a person pasted into a ticket (collect_env, nvidia-smi, jax,
// TensorFlow, rocminfo, system_profiler, clinfo, vulkaninfo, ollama logs, package lists, the
// programs' own messages), read into a snapshot that holds only what the paste covers.
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "json.hpp"
#include "model/finding.hpp"
#include "model/snapshot.hpp"
#include "paste/paste_sink.hpp"

namespace gpudoctor {

/// A run of lines one reader recognised.
struct PastePart {
  std::string format;  ///< "collect_env", "nvidia-smi", …
  int first_line = 0;
  int last_line = 0;
};
GPUDOCTOR_JSON(PastePart, format, first_line, last_line)

/// A fact the paste lacks that would decide more, and how to get it.
struct PasteAsk {
  std::string ask;  ///< a command to run: "nvidia-smi"
  std::string why;
};
GPUDOCTOR_JSON(PasteAsk, ask, why)

struct PastedReading {
  std::shared_ptr<const std::string> text;  ///< the text as read (NUL bytes made spaces): `lines`
                                            ///< are slices of it
  Snapshot snapshot;
  std::vector<PastePart> parts;
  std::vector<std::pair<int, int>> unrecognised;  ///< line ranges no reader took (blank ones aside)
  std::vector<PasteFact> facts;
  std::vector<PasteLine> lines;
  std::vector<std::string> not_read;  ///< what lay past a cap ("NVIDIA GPUs past 1024")
};

/// One reader of pasted text: what it reads, for people, and the reader itself.
struct PasteReader {
  std::string_view reads;  ///< "nvidia-smi", "collect_env", …
  void (*read)(PasteSink&);
};

/// Every reader, in the order read_pasted runs them: the one list of what a paste may hold.
const std::vector<PasteReader>& paste_readers();

/// "deviceQuery, …, pip list/freeze, conda list": for help texts and messages.
std::string paste_formats_text();

/// The one command whose output would say most about this text's machine, for a text in which
/// nothing was recognised: what its words point at (torch: collect_env; a Mac: system_profiler).
PasteAsk first_ask(std::string_view text);

/// Reads the text; `parts` is empty when nothing in it was recognised.
PastedReading read_pasted(std::string_view text);
/// The same, taking the text (no copy of a large paste).
PastedReading read_pasted_text(std::string text);

/// Whether `text` is meant as JSON: its first non-blank character opens an object, or it is a
/// whole JSON array. Text that opens with '[' and does not parse (dmesg) is a paste.
bool looks_like_json(std::string_view text);

/// Whether `text` could be a paste at all: not blank, and no NUL byte (a binary file).
bool looks_like_text(std::string_view text);

/// Adds to each finding the pasted lines it stands on: the lines of the facts its title and
/// evidence name, and of the messages it quotes.
void quote_findings(const PastedReading& reading, std::vector<Finding>& findings);

/// Drops findings that only the absence of a section made: a paste that lists OpenCL platforms
/// did not list the ICD files, so "no ICD registered" would be false.
void drop_unfounded(const PastedReading& reading, std::vector<Finding>& findings);

/// What to ask the person for, where a missing fact would decide more.
std::vector<PasteAsk> what_would_decide(const PastedReading& reading,
                                        const std::vector<Finding>& findings);

/// {"parts": …, "unrecognised": [[from, to], …], "ask": […]}.
Json paste_json(const PastedReading& reading, const std::vector<PasteAsk>& asks);

/// "Read from the paste: …" and "What would decide more: …", for the end of `check`'s text.
std::string render_paste_text(const PastedReading& reading, const std::vector<PasteAsk>& asks);

}  // namespace gpudoctor
