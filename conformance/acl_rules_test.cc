// ACL rules: ACL SETUSER's rule language and its errors, and how ACL GETUSER, ACL LIST, ACL CAT,
// ACL DRYRUN and the small subcommands show users, categories and permissions.
#include "conformance/acl_util.h"
#include "conformance/digest.h"
#include "conformance/help_reply.h"

namespace redlab::conformance {
namespace {

Reply RuleError(std::string_view rule, std::string_view text) {
  return Error("ERR Error in ACL SETUSER modifier '" + std::string(rule) +
               "': " + std::string(text));
}

constexpr std::string_view kSyntax = "Syntax error";
constexpr std::string_view kUnknown = "Unknown command or category name in ACL";

using AclRulesTest = AclTest;

TEST_F(AclRulesTest, NewUsersAreOffAndAllowNothing) {
  Client c = Connect();
  EXPECT_EQ(c({"ACL", "WHOAMI"}), Bulk("default"));
  EXPECT_EQ(c({"ACL", "SETUSER", "newuser"}), Status("OK"));
  EXPECT_EQ(c({"ACL", "GETUSER", "newuser"}),
            Array({Bulk("flags"), Array({Bulk("off")}), Bulk("passwords"), Array({}),
                   Bulk("commands"), Bulk("-@all"), Bulk("keys"), Bulk(""), Bulk("channels"),
                   Bulk(""), Bulk("selectors"), Array({})}));
  EXPECT_EQ(c({"ACL", "LIST"}), Strings({"user default on nopass ~* &* +@all",
                                         "user newuser off resetchannels -@all"}));
  EXPECT_EQ(c({"ACL", "GETUSER", "nobody"}), Nil());
  // A user's rules are kept by name, in byte order.
  EXPECT_EQ(c({"ACL", "SETUSER", "b"}), Status("OK"));
  EXPECT_EQ(c({"ACL", "SETUSER", "B"}), Status("OK"));
  EXPECT_EQ(c({"ACL", "USERS"}), Strings({"B", "b", "default", "newuser"}));
}

TEST_F(AclRulesTest, UsernamesCannotHoldSpacesOrNul) {
  Client c = Connect();
  Reply error = Error("ERR Usernames can't contain spaces or null characters");
  EXPECT_EQ(c({"ACL", "SETUSER", "a a"}), error);
  EXPECT_EQ(c({"ACL", "SETUSER", std::string_view("a\0b", 3)}), error);
  EXPECT_EQ(c({"ACL", "SETUSER", "a\tb"}), error);
}

TEST_F(AclRulesTest, PasswordsAreKeptAsSha256) {
  Client c = Connect();
  EXPECT_EQ(c({"ACL", "SETUSER", "u", ">passwd1", ">passwd2", ">passwd1"}), Status("OK"));
  EXPECT_EQ(Field(c({"ACL", "GETUSER", "u"}), "passwords"),
            Strings({Sha256Hex("passwd1"), Sha256Hex("passwd2")}));
  std::string hash4 = "34344e4d60c2b6d639b7bd22e18f2b0b91bc34bf0ac5f9952744435093cfb4e6";
  EXPECT_EQ(c({"ACL", "SETUSER", "u", "<passwd1", "#" + hash4}), Status("OK"));
  EXPECT_EQ(Field(c({"ACL", "GETUSER", "u"}), "passwords"), Strings({Sha256Hex("passwd2"), hash4}));
  EXPECT_EQ(c({"ACL", "SETUSER", "u", "!" + hash4}), Status("OK"));
  EXPECT_EQ(
      c({"ACL", "SETUSER", "u", "<passwd1"}),
      RuleError("<passwd1", "The password you are trying to remove from the user does not exist"));
  std::string_view bad_hash =
      "The password hash must be exactly 64 characters and contain only lowercase hexadecimal "
      "characters";
  EXPECT_EQ(c({"ACL", "SETUSER", "u", "#" + hash4.substr(1)}),
            RuleError("#" + hash4.substr(1), bad_hash));
  std::string upper = "A" + hash4.substr(1);
  EXPECT_EQ(c({"ACL", "SETUSER", "u", "!" + upper}), RuleError("!" + upper, bad_hash));
  // nopass forgets the passwords; resetpass forgets nopass too.
  EXPECT_EQ(c({"ACL", "SETUSER", "u", "nopass"}), Status("OK"));
  EXPECT_EQ(c({"ACL", "GETUSER", "u"}).elements[1], Array({Bulk("off"), Bulk("nopass")}));
  EXPECT_EQ(c({"ACL", "SETUSER", "u", ">x", "resetpass", "on"}), Status("OK"));
  EXPECT_EQ(c({"ACL", "LIST"}).elements[1], Bulk("user u on resetchannels -@all"));
}

TEST_F(AclRulesTest, RulesApplyAllOrNothing) {
  Client c = Connect();
  EXPECT_EQ(c({"ACL", "SETUSER", "u", "on", "~k", "+get"}), Status("OK"));
  EXPECT_EQ(c({"ACL", "SETUSER", "u", "off", "~other", "+nosuch"}), RuleError("+nosuch", kUnknown));
  EXPECT_EQ(c({"ACL", "LIST"}).elements[1], Bulk("user u on ~k resetchannels -@all +get"));
  // A refused new user is not created.
  EXPECT_EQ(c({"ACL", "SETUSER", "v", "on", "bogus"}), RuleError("bogus", kSyntax));
  EXPECT_EQ(c({"ACL", "GETUSER", "v"}), Nil());
}

TEST_F(AclRulesTest, RuleErrors) {
  Client c = Connect();
  EXPECT_EQ(c({"ACL", "SETUSER", "u", "+"}), RuleError("+", kUnknown));
  EXPECT_EQ(c({"ACL", "SETUSER", "u", "-@nosuch"}), RuleError("-@nosuch", kUnknown));
  EXPECT_EQ(c({"ACL", "SETUSER", "u", "+config|asdf"}), RuleError("+config|asdf", kUnknown));
  EXPECT_EQ(c({"ACL", "SETUSER", "u", "-config|asdf"}), RuleError("-config|asdf", kUnknown));
  EXPECT_EQ(c({"ACL", "SETUSER", "u", "+get|key1|key2"}), RuleError("+get|key1|key2", kUnknown));
  EXPECT_EQ(c({"ACL", "SETUSER", "u", "-select|0"}), RuleError("-select|0", kUnknown));
  EXPECT_EQ(
      c({"ACL", "SETUSER", "u", "+config|get|appendonly"}),
      RuleError("+config|get|appendonly", "Allowing first-arg of a subcommand is not supported"));
  EXPECT_EQ(c({"ACL", "SETUSER", "u", "+select|"}), RuleError("+select|", kSyntax));
  EXPECT_EQ(c({"ACL", "SETUSER", "u", "%X~k"}), RuleError("%X~k", kSyntax));
  EXPECT_EQ(c({"ACL", "SETUSER", "u", "%RR~k"}), RuleError("%RR~k", kSyntax));
  EXPECT_EQ(c({"ACL", "SETUSER", "u", "~a\tb"}), RuleError("~a\tb", kSyntax));
  EXPECT_EQ(c({"ACL", "SETUSER", "u", "allkeys", "~k"}),
            RuleError("~k",
                      "Adding a pattern after the * pattern (or the 'allkeys' flag) is not valid "
                      "and does not have any effect. Try 'resetkeys' to start with an empty list "
                      "of patterns"));
  EXPECT_EQ(c({"ACL", "SETUSER", "u", "allchannels", "&c"}),
            RuleError("&c",
                      "Adding a pattern after the * pattern (or the 'allchannels' flag) is not "
                      "valid and does not have any effect. Try 'resetchannels' to start with an "
                      "empty list of channels"));
  // Keywords are case-insensitive.
  EXPECT_EQ(c({"ACL", "SETUSER", "u", "ON", "AllKeys", "+GET", "+@STRING"}), Status("OK"));
}

TEST_F(AclRulesTest, KeyAndChannelPatterns) {
  Client c = Connect();
  EXPECT_EQ(c({"ACL", "SETUSER", "u", "%R~foo1", "%W~bar1", "~baz1", "%RW~q", "%WR~r", "&ch1",
               "&ch2", "&ch1"}),
            Status("OK"));
  Reply user = c({"ACL", "GETUSER", "u"});
  EXPECT_EQ(Field(user, "keys"), Bulk("%R~foo1 %W~bar1 ~baz1 ~q ~r"));
  EXPECT_EQ(Field(user, "channels"), Bulk("&ch1 &ch2"));
  // The same pattern again adds its permissions to the first one.
  EXPECT_EQ(c({"ACL", "SETUSER", "u", "%W~foo1"}), Status("OK"));
  EXPECT_EQ(Field(c({"ACL", "GETUSER", "u"}), "keys"), Bulk("~foo1 %W~bar1 ~baz1 ~q ~r"));
  EXPECT_EQ(c({"ACL", "SETUSER", "u", "allkeys", "allchannels"}), Status("OK"));
  user = c({"ACL", "GETUSER", "u"});
  EXPECT_EQ(Field(user, "keys"), Bulk("~*"));
  EXPECT_EQ(Field(user, "channels"), Bulk("&*"));
  EXPECT_EQ(c({"ACL", "SETUSER", "u", "resetkeys", "~a", "resetchannels"}), Status("OK"));
  EXPECT_EQ(c({"ACL", "LIST"}).elements[1], Bulk("user u off ~a resetchannels -@all"));
}

TEST_F(AclRulesTest, CommandRulesAreDescribedBack) {
  Client c = Connect();
  auto commands = [&](std::string_view user) {
    return Field(c({"ACL", "GETUSER", user}), "commands");
  };
  EXPECT_EQ(c({"ACL", "SETUSER", "u", "+@all", "-client|kill"}), Status("OK"));
  EXPECT_EQ(commands("u"), Bulk("+@all -client|kill"));
  EXPECT_EQ(c({"ACL", "SETUSER", "bob", "+memory|doctor"}), Status("OK"));
  EXPECT_EQ(commands("bob"), Bulk("-@all +memory|doctor"));
  // The whole command engulfs its subcommands, +@all everything.
  EXPECT_EQ(c({"ACL", "SETUSER", "bob", "+memory"}), Status("OK"));
  EXPECT_EQ(commands("bob"), Bulk("-@all +memory"));
  EXPECT_EQ(c({"ACL", "SETUSER", "bob", "+@all", "+client|id"}), Status("OK"));
  EXPECT_EQ(commands("bob"), Bulk("+@all"));
  EXPECT_EQ(c({"ACL", "SETUSER", "alice", "+@all", "-memory"}), Status("OK"));
  EXPECT_EQ(commands("alice"), Bulk("+@all -memory"));
  EXPECT_EQ(c({"ACL", "SETUSER", "alice", "-@all"}), Status("OK"));
  EXPECT_EQ(commands("alice"), Bulk("-@all"));
  // First arguments of a command without subcommands.
  EXPECT_EQ(c({"ACL", "SETUSER", "sel", "-@all", "+select|0", "+select|1", "+select|0"}),
            Status("OK"));
  EXPECT_EQ(commands("sel"), Bulk("-@all +select|0 +select|1"));
  // Several single commands come in the command table's order (random in Redis).
  EXPECT_EQ(c({"ACL", "SETUSER", "m", "+@all", "-client", "+client|id", "+client|setname"}),
            Status("OK"));
  EXPECT_EQ(SortedWords(commands("m").str),
            (std::vector<std::string>{"+@all", "+client|id", "+client|setname", "-client"}));
  EXPECT_EQ(c({"ACL", "SETUSER", "n", "-@all", "+acl", "+config", "-config|set"}), Status("OK"));
  EXPECT_EQ(SortedWords(commands("n").str),
            (std::vector<std::string>{"+acl", "+config", "-@all", "-config|set"}));
  // +@slow takes a container's fast subcommands along (CLIENT is @slow, CLIENT ID is @fast).
  EXPECT_EQ(c({"ACL", "SETUSER", "slow", "-@all", "+@slow"}), Status("OK"));
  EXPECT_EQ(commands("slow"), Bulk("-@all +@slow"));
  EXPECT_EQ(c({"ACL", "DRYRUN", "slow", "CLIENT", "ID"}), Status("OK"));
}

TEST_F(AclRulesTest, OneCategoryIsDescribedAsItself) {
  Client c = Connect();
  // The categories redlab has commands in (it has no geo, stream, hyperloglog or blocking
  // command).
  for (std::string category :
       {"keyspace", "read", "write", "set", "sortedset", "list", "hash", "string", "bitmap",
        "pubsub", "admin", "fast", "slow", "dangerous", "connection", "transaction", "scripting"}) {
    EXPECT_EQ(c({"ACL", "SETUSER", "add", "reset", "+@all", "-@" + category}), Status("OK"));
    EXPECT_EQ(Field(c({"ACL", "GETUSER", "add"}), "commands"), Bulk("+@all -@" + category));
    EXPECT_EQ(c({"ACL", "SETUSER", "rem", "reset", "-@all", "+@" + category}), Status("OK"));
    EXPECT_EQ(Field(c({"ACL", "GETUSER", "rem"}), "commands"), Bulk("-@all +@" + category));
  }
}

TEST_F(AclRulesTest, Selectors) {
  Client c = Connect();
  EXPECT_EQ(
      c({"ACL", "SETUSER", "s", "on", "nopass", "(+@write ~write::*)", "(+@read ~read::* &chan)"}),
      Status("OK"));
  Reply selectors = Field(c({"ACL", "GETUSER", "s"}), "selectors");
  ASSERT_EQ(selectors.elements.size(), 2u);
  EXPECT_EQ(selectors.elements[0], Array({Bulk("commands"), Bulk("-@all +@write"), Bulk("keys"),
                                          Bulk("~write::*"), Bulk("channels"), Bulk("")}));
  EXPECT_EQ(selectors.elements[1], Array({Bulk("commands"), Bulk("-@all +@read"), Bulk("keys"),
                                          Bulk("~read::*"), Bulk("channels"), Bulk("&chan")}));
  EXPECT_EQ(c({"ACL", "LIST"}).elements[1],
            Bulk("user s on nopass resetchannels -@all (~write::* resetchannels -@all +@write) "
                 "(~read::* resetchannels &chan -@all +@read)"));
  // A selector spread over several arguments is joined; an empty one allows nothing.
  EXPECT_EQ(c({"ACL", "SETUSER", "t", "(~key1 +get )", "( ~key2", "+get", ")", "()"}),
            Status("OK"));
  selectors = Field(c({"ACL", "GETUSER", "t"}), "selectors");
  ASSERT_EQ(selectors.elements.size(), 3u);
  EXPECT_EQ(Field(selectors.elements[0], "keys"), Bulk("~key1"));
  EXPECT_EQ(Field(selectors.elements[1], "keys"), Bulk("~key2"));
  EXPECT_EQ(Field(selectors.elements[2], "commands"), Bulk("-@all"));
  EXPECT_EQ(c({"ACL", "SETUSER", "t", "clearselectors"}), Status("OK"));
  EXPECT_EQ(Field(c({"ACL", "GETUSER", "t"}), "selectors"), Array({}));
  // Errors inside a selector name the whole selector.
  EXPECT_EQ(c({"ACL", "SETUSER", "x", "(this-is-invalid)"}),
            RuleError("(this-is-invalid)", kSyntax));
  EXPECT_EQ(c({"ACL", "SETUSER", "x", " () "}), RuleError(" () ", kSyntax));
  EXPECT_EQ(c({"ACL", "SETUSER", "x", ")"}), RuleError(")", kSyntax));
  EXPECT_EQ(c({"ACL", "SETUSER", "x", "on", "(~a", "+get"}),
            Error("ERR Unmatched parenthesis in acl selector starting at '(~a'."));
  EXPECT_EQ(c({"ACL", "GETUSER", "x"}), Nil());
}

TEST_F(AclRulesTest, ResetAndPubsubDefault) {
  Client c = Connect();
  EXPECT_EQ(c({"ACL", "SETUSER", "u", "on", ">pw", "~*", "&*", "+@all", "(+get)"}), Status("OK"));
  EXPECT_EQ(c({"ACL", "SETUSER", "u", "reset"}), Status("OK"));
  EXPECT_EQ(c({"ACL", "LIST"}).elements[1],
            Bulk("user u off sanitize-payload resetchannels -@all"));
  // acl-pubsub-default is read when a user is made or reset, not afterwards.
  EXPECT_EQ(c({"CONFIG", "SET", "acl-pubsub-default", "allchannels"}), Status("OK"));
  EXPECT_EQ(c({"ACL", "SETUSER", "v"}), Status("OK"));
  EXPECT_EQ(Field(c({"ACL", "GETUSER", "v"}), "channels"), Bulk("&*"));
  EXPECT_EQ(c({"ACL", "SETUSER", "v", "&x"}),
            RuleError("&x",
                      "Adding a pattern after the * pattern (or the 'allchannels' flag) is not "
                      "valid and does not have any effect. Try 'resetchannels' to start with an "
                      "empty list of channels"));
  EXPECT_EQ(c({"ACL", "SETUSER", "u", "reset"}), Status("OK"));
  EXPECT_EQ(c({"ACL", "LIST"}).elements[1], Bulk("user u off sanitize-payload &* -@all"));
  EXPECT_EQ(c({"CONFIG", "SET", "acl-pubsub-default", "resetchannels"}), Status("OK"));
  EXPECT_EQ(Field(c({"ACL", "GETUSER", "v"}), "channels"), Bulk("&*"));
  EXPECT_EQ(c({"CONFIG", "GET", "acl-pubsub-default"}),
            Strings({"acl-pubsub-default", "resetchannels"}));
}

TEST_F(AclRulesTest, Categories) {
  Client c = Connect();
  EXPECT_EQ(
      c({"ACL", "CAT"}),
      Strings({"keyspace",   "read",        "write",    "set",         "sortedset", "list",
               "hash",       "string",      "bitmap",   "hyperloglog", "geo",       "stream",
               "pubsub",     "admin",       "fast",     "slow",        "blocking",  "dangerous",
               "connection", "transaction", "scripting"}));
  Reply transaction = c({"ACL", "CAT", "Transaction"});
  std::vector<std::string> names;
  for (const Reply& r : transaction.elements) names.push_back(r.str);
  std::sort(names.begin(), names.end());
  EXPECT_EQ(names, (std::vector<std::string>{"discard", "exec", "multi", "unwatch", "watch"}));
  auto in = [&](std::string_view category, std::string_view name) {
    for (const Reply& r : c({"ACL", "CAT", category}).elements) {
      if (r.str == name) return true;
    }
    return false;
  };
  EXPECT_TRUE(in("scripting", "function|list"));
  EXPECT_TRUE(in("slow", "client"));
  EXPECT_FALSE(in("keyspace", "set"));
  EXPECT_EQ(c({"ACL", "CAT", "NON_EXISTS"}), Error("ERR Unknown category 'NON_EXISTS'"));
  EXPECT_EQ(c({"ACL", "CAT", "a", "b"}),
            Error("ERR unknown subcommand or wrong number of arguments for 'CAT'. Try ACL HELP."));
}

TEST_F(AclRulesTest, DryRun) {
  Client c = Connect();
  EXPECT_EQ(c({"ACL", "SETUSER", "t", "+@all", "%R~read*", "%W~write*", "%RW~rw*", "resetchannels",
               "&channel"}),
            Status("OK"));
  EXPECT_EQ(c({"ACL", "DRYRUN", "t", "GET", "read"}), Status("OK"));
  EXPECT_EQ(c({"ACL", "DRYRUN", "t", "GET", "write"}),
            Bulk("This user has no permissions to access the 'write' key"));
  EXPECT_EQ(c({"ACL", "DRYRUN", "t", "SPUBLISH", "other", "m"}),
            Bulk("This user has no permissions to access the 'other' channel"));
  EXPECT_EQ(c({"ACL", "DRYRUN", "t", "SUNSUBSCRIBE", "other"}), Status("OK"));
  EXPECT_EQ(c({"ACL", "DRYRUN", "nobody", "GET", "read"}), Error("ERR User 'nobody' not found"));
  EXPECT_EQ(c({"ACL", "DRYRUN", "t", "nocmd", "read"}), Error("ERR Command 'nocmd' not found"));
  EXPECT_EQ(c({"ACL", "DRYRUN", "t", "CONFIG", "nosub"}), Error("ERR Command 'CONFIG' not found"));
  EXPECT_EQ(c({"ACL", "DRYRUN", "t", "SET", "rw"}),
            Error("ERR wrong number of arguments for 'set' command"));
  EXPECT_EQ(c({"ACL", "SETUSER", "t", "-@all"}), Status("OK"));
  EXPECT_EQ(c({"ACL", "DRYRUN", "t", "CONFIG", "GET", "x"}),
            Bulk("This user has no permissions to run the 'config|get' command"));
  // Scripting commands are not @read, even the read-only ones.
  EXPECT_EQ(c({"ACL", "SETUSER", "scripter", "on", "nopass", "+@read"}), Status("OK"));
  EXPECT_EQ(c({"ACL", "DRYRUN", "scripter", "EVAL_RO", "", "0"}),
            Bulk("This user has no permissions to run the 'eval_ro' command"));
  EXPECT_EQ(c({"ACL", "DRYRUN", "scripter", "FCALL_RO", "f", "0"}),
            Bulk("This user has no permissions to run the 'fcall_ro' command"));
}

TEST_F(AclRulesTest, DryRunKeysFollowKeySpecs) {
  Client c = Connect();
  EXPECT_EQ(c({"ACL", "SETUSER", "t", "+@all", "%R~read*", "%W~write*", "%RW~rw*"}), Status("OK"));
  auto dry = [&](std::vector<std::string> args) {
    std::vector<std::string> line = {"ACL", "DRYRUN", "t"};
    line.insert(line.end(), args.begin(), args.end());
    return c.Call(line);
  };
  Reply ok = Status("OK");
  auto denied = [](std::string key) {
    return Bulk("This user has no permissions to access the '" + key + "' key");
  };
  EXPECT_EQ(dry({"EVAL", "", "1", "rw1"}), ok);
  EXPECT_EQ(dry({"EVAL", "", "1", "read"}), denied("read"));
  EXPECT_EQ(dry({"EVAL_RO", "", "1", "read"}), ok);
  EXPECT_EQ(dry({"EVAL", "", "0", "read"}), ok);
  EXPECT_EQ(dry({"EVAL", "", "-1", "read"}), ok);  // a syntax error, not an ACL one
  EXPECT_EQ(dry({"EVAL", "", "3", "rw", "read"}), ok);
  // Existence and cardinality checks need either permission; reading data needs read.
  for (std::string cmd : {"EXISTS", "TYPE", "STRLEN", "HLEN", "LLEN", "SCARD", "ZCARD"}) {
    EXPECT_EQ(dry({cmd, "read"}), ok) << cmd;
    EXPECT_EQ(dry({cmd, "write"}), ok) << cmd;
    EXPECT_EQ(dry({cmd, "nothing"}), denied("nothing")) << cmd;
  }
  EXPECT_EQ(dry({"HEXISTS", "write", "f"}), ok);
  EXPECT_EQ(dry({"SINTERCARD", "2", "write", "read"}), denied("write"));
  EXPECT_EQ(dry({"ZCOUNT", "write", "0", "1"}), denied("write"));
  EXPECT_EQ(dry({"SUNIONSTORE", "write", "read"}), ok);
  EXPECT_EQ(dry({"SUNIONSTORE", "read", "write"}), denied("read"));
  // SET reads its key only with GET; BITFIELD writes unless it only GETs.
  EXPECT_EQ(dry({"SET", "write", "v"}), ok);
  EXPECT_EQ(dry({"SET", "write", "v", "GET"}), denied("write"));
  EXPECT_EQ(dry({"SET", "read", "v"}), denied("read"));
  EXPECT_EQ(dry({"SET", "rw", "v", "get", "ex", "10"}), ok);
  EXPECT_EQ(dry({"BITFIELD", "read", "GET", "u4", "0"}), ok);
  EXPECT_EQ(dry({"BITFIELD", "read", "GET", "u4", "0", "SET", "u4", "0", "1"}), denied("read"));
  EXPECT_EQ(dry({"BITFIELD", "write", "INCRBY", "u4", "0", "1"}), denied("write"));
  // The key that no selector allows is the one reported; the last one when several selectors
  // fail on different keys.
  EXPECT_EQ(c({"ACL", "SETUSER", "s", "+mget", "~key", "(+mget ~key ~otherkey)"}), Status("OK"));
  EXPECT_EQ(c({"ACL", "DRYRUN", "s", "MGET", "otherkey", "someotherkey"}), denied("someotherkey"));
  EXPECT_EQ(c({"ACL", "DRYRUN", "s", "GET", "key"}),
            Bulk("This user has no permissions to run the 'get' command"));
}

TEST_F(AclRulesTest, KeyFlagsOfSetAndBitfield) {
  Client c = Connect();
  auto flags = [&](std::vector<std::string> args) {
    std::vector<std::string> line = {"COMMAND", "GETKEYSANDFLAGS"};
    line.insert(line.end(), args.begin(), args.end());
    return c.Call(line).elements.at(0).elements.at(1);
  };
  EXPECT_EQ(flags({"SET", "k", "v"}).elements.size(), 2u);
  EXPECT_EQ(flags({"SET", "k", "v"}).elements[0].str, "OW");
  EXPECT_EQ(flags({"SET", "k", "v", "GET"}).elements[0].str, "RW");
  EXPECT_EQ(flags({"BITFIELD", "k", "GET", "u4", "0"}).elements[0].str, "RO");
  EXPECT_EQ(flags({"BITFIELD", "k", "INCRBY", "u4", "0", "1"}).elements[0].str, "RW");
}

TEST_F(AclRulesTest, DelUserUsersWhoAmIGenPassHelp) {
  Client c = Connect();
  EXPECT_EQ(c({"ACL", "SETUSER", "a"}), Status("OK"));
  EXPECT_EQ(c({"ACL", "SETUSER", "b"}), Status("OK"));
  EXPECT_EQ(c({"ACL", "DELUSER", "a", "default"}),
            Error("ERR The 'default' user cannot be removed"));
  EXPECT_EQ(c({"ACL", "DELUSER", "a", "nosuch", "b", "a"}), Int(2));
  EXPECT_EQ(c({"ACL", "USERS"}), Strings({"default"}));
  EXPECT_EQ(c({"ACL", "WHOAMI", "x"}),
            Error("ERR wrong number of arguments for 'acl|whoami' command"));
  EXPECT_EQ(c({"ACL", "help", "xxx"}),
            Error("ERR wrong number of arguments for 'acl|help' command"));
  ASSERT_NO_FATAL_FAILURE(
      ExpectHelp(c({"ACL", "HELP"}), 29,
                 {{0, HelpHeader("ACL")}, {6, "DRYRUN <username> <command> [<arg> ...]"}}));
  EXPECT_EQ(c({"ACL", "NOSUCH"}), Error("ERR unknown subcommand 'NOSUCH'. Try ACL HELP."));
  Reply password = c({"ACL", "GENPASS"});
  EXPECT_EQ(password.str.size(), 64u);
  EXPECT_EQ(password.str.find_first_not_of("0123456789abcdef"), std::string::npos);
  EXPECT_EQ(c({"ACL", "GENPASS", "5"}).str.size(), 2u);
  EXPECT_EQ(c({"ACL", "GENPASS", "4096"}).str.size(), 1024u);
  Reply error = Error(
      "ERR ACL GENPASS argument must be the number of bits for the output password, a positive "
      "number up to 4096");
  EXPECT_EQ(c({"ACL", "GENPASS", "-236"}), error);
  EXPECT_EQ(c({"ACL", "GENPASS", "0"}), error);
  EXPECT_EQ(c({"ACL", "GENPASS", "5000"}), error);
  EXPECT_EQ(c({"ACL", "GENPASS", "x"}), Error("ERR value is not an integer or out of range"));
  EXPECT_EQ(c({"ACL", "GENPASS", "1", "2"}),
            Error("ERR unknown subcommand or wrong number of arguments for 'GENPASS'. Try ACL "
                  "HELP."));
}

}  // namespace
}  // namespace redlab::conformance
