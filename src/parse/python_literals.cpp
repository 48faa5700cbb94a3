#include "parse/python_literals.hpp"

#include <cctype>
#include <optional>

namespace gpudoctor {

namespace {

struct Token {
  enum class Type { name, string, number, op, newline };
  Type type = Type::op;
  std::string text;
  bool line_start = false;  ///< first token of a logical line
  bool indented = false;    ///< that line starts with blanks
};

bool is_name_char(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

bool is_string_prefix(std::string_view s) {
  for (std::string_view p : {"r", "u", "b", "f", "rb", "br", "fr", "rf"}) {
    if (s.size() == p.size()) {
      bool same = true;
      for (std::size_t i = 0; i < s.size(); ++i) {
        same = same && std::tolower(static_cast<unsigned char>(s[i])) == p[i];
      }
      if (same) return true;
    }
  }
  return false;
}

/// Reads a quoted string starting at src[i] (a quote); returns its value and moves i past it.
std::string read_string(std::string_view src, std::size_t& i, bool raw) {
  const char q = src[i];
  const bool triple = src.substr(i, 3) == std::string(3, q);
  i += triple ? 3 : 1;
  std::string out;
  while (i < src.size()) {
    char c = src[i];
    if (triple ? src.substr(i, 3) == std::string(3, q) : c == q) {
      i += triple ? 3 : 1;
      return out;
    }
    if (!triple && c == '\n') return out;  // unterminated: stop at the line's end
    if (c == '\\' && i + 1 < src.size()) {
      char e = src[i + 1];
      i += 2;
      if (raw) {
        out += '\\';
        out += e;
      } else if (e == 'n') {
        out += '\n';
      } else if (e == 't') {
        out += '\t';
      } else if (e != '\n') {
        out += e;
      }
      continue;
    }
    out += c;
    ++i;
  }
  return out;
}

std::vector<Token> tokenize(std::string_view src) {
  std::vector<Token> out;
  int depth = 0;
  bool at_line_start = true;
  bool indented = false;
  std::size_t i = 0;
  auto push = [&](Token t) {
    t.line_start = at_line_start;
    t.indented = indented;
    at_line_start = false;
    out.push_back(std::move(t));
  };
  while (i < src.size()) {
    char c = src[i];
    if (c == '#') {
      while (i < src.size() && src[i] != '\n') ++i;
    } else if (c == '\n') {
      ++i;
      if (depth == 0 && !at_line_start) out.push_back({Token::Type::newline, ""});
      if (depth == 0) {
        at_line_start = true;
        indented = i < src.size() && (src[i] == ' ' || src[i] == '\t');
      }
    } else if (c == '\\' && i + 1 < src.size() && src[i + 1] == '\n') {
      i += 2;
    } else if (std::isspace(static_cast<unsigned char>(c))) {
      ++i;
    } else if (c == '\'' || c == '"') {
      push({Token::Type::string, read_string(src, i, false)});
    } else if (std::isdigit(static_cast<unsigned char>(c))) {
      std::size_t j = i;
      while (j < src.size() && (is_name_char(src[j]) || src[j] == '.')) ++j;
      push({Token::Type::number, std::string(src.substr(i, j - i))});
      i = j;
    } else if (is_name_char(c)) {
      std::size_t j = i;
      while (j < src.size() && is_name_char(src[j])) ++j;
      std::string_view name = src.substr(i, j - i);
      if (j < src.size() && (src[j] == '\'' || src[j] == '"') && is_string_prefix(name)) {
        bool raw = name.find_first_of("rR") != std::string_view::npos;
        i = j;
        push({Token::Type::string, read_string(src, i, raw)});
        continue;
      }
      push({Token::Type::name, std::string(name)});
      i = j;
    } else {
      if (c == '(' || c == '[' || c == '{') ++depth;
      if ((c == ')' || c == ']' || c == '}') && depth > 0) --depth;
      std::string op(1, c);
      if (c == '=' && i + 1 < src.size() && src[i + 1] == '=') op = "==";
      i += op.size();
      push({Token::Type::op, op});
    }
  }
  return out;
}

bool is_op(const std::vector<Token>& t, std::size_t i, std::string_view op) {
  return i < t.size() && t[i].type == Token::Type::op && t[i].text == op;
}

/// A literal at t[i]; on success i is moved past it.
std::optional<PyLiteral> read_literal(const std::vector<Token>& t, std::size_t& i) {
  if (i >= t.size()) return std::nullopt;
  PyLiteral v;
  const Token& tok = t[i];
  if (tok.type == Token::Type::string) {
    v.kind = PyLiteral::Kind::string;
    while (i < t.size() && t[i].type == Token::Type::string) v.text += t[i++].text;
    return v;
  }
  if (tok.type == Token::Type::number) {
    v.kind = PyLiteral::Kind::number;
    v.text = tok.text;
    ++i;
    return v;
  }
  if (tok.type == Token::Type::name) {
    if (tok.text == "True" || tok.text == "False") {
      v.kind = PyLiteral::Kind::boolean;
      v.flag = tok.text == "True";
    } else if (tok.text == "None") {
      v.kind = PyLiteral::Kind::none;
    } else {
      return std::nullopt;
    }
    ++i;
    return v;
  }
  if (is_op(t, i, "[") || is_op(t, i, "(")) {
    const std::string close = t[i].text == "[" ? "]" : ")";
    std::size_t j = i + 1;
    v.kind = PyLiteral::Kind::list;
    while (j < t.size() && !is_op(t, j, close)) {
      if (t[j].type != Token::Type::string && t[j].type != Token::Type::number) {
        return std::nullopt;
      }
      v.items.push_back(t[j++].text);
      if (is_op(t, j, ",")) ++j;
    }
    if (j >= t.size()) return std::nullopt;
    i = j + 1;
    return v;
  }
  return std::nullopt;
}

}  // namespace

std::map<std::string, PyLiteral> python_assignments(std::string_view source) {
  const std::vector<Token> t = tokenize(source);
  std::map<std::string, PyLiteral> out;
  for (std::size_t i = 0; i < t.size(); ++i) {
    if (!t[i].line_start || t[i].indented || t[i].type != Token::Type::name) continue;
    const std::string& name = t[i].text;
    std::size_t j = i + 1;
    if (is_op(t, j, ":")) {  // an annotation: skip to the '='
      while (j < t.size() && t[j].type != Token::Type::newline && !is_op(t, j, "=")) ++j;
    }
    if (!is_op(t, j, "=")) continue;
    ++j;
    auto value = read_literal(t, j);
    if (value && (j >= t.size() || t[j].type == Token::Type::newline)) {
      out[name] = std::move(*value);
    }
  }
  return out;
}

std::map<std::string, PyLiteral> python_dict_entries(std::string_view source) {
  const std::vector<Token> t = tokenize(source);
  std::map<std::string, PyLiteral> out;
  for (std::size_t i = 1; i + 2 < t.size(); ++i) {
    if (t[i].type != Token::Type::string) continue;
    const bool dict_entry = (is_op(t, i - 1, "{") || is_op(t, i - 1, ",")) && is_op(t, i + 1, ":");
    const bool pair = is_op(t, i - 1, "(") && is_op(t, i + 1, ",");
    if (!dict_entry && !pair) continue;
    std::size_t j = i + 2;
    auto value = read_literal(t, j);
    if (!value) continue;
    if (pair && !is_op(t, j, ")")) continue;
    out.emplace(t[i].text, std::move(*value));
  }
  return out;
}

}  // namespace gpudoctor
