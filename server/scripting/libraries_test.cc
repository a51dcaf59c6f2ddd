// The struct, cmsgpack, cjson and bit libraries inside the sandbox: every script below was run
// on real redis-server 7.0.15, and the expected reply is the exact bytes it answered (errors
// included). Scripts marked `hex` get a helper that returns a binary string as hex digits.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "server/scripting/interpreter.h"
#include "server/scripting/sha1hex.h"

namespace redlab::server::scripting {
namespace {

constexpr std::string_view kHexHelper =
    "local function hex(s) return (s:gsub('.', function(c) return string.format('%02x', c:byte())"
    " end)) end ";

struct Case {
  bool hex;
  const char* script;
  const char* reply;
};

class NoCommandsHost : public ScriptHost {
 public:
  bool Call(std::span<std::string>, int, std::string*, std::string* error) override {
    *error = "Unknown Redis command called from script";
    return false;
  }
  std::optional<bool> AclCheckCommand(std::span<const std::string>) override {
    return std::nullopt;
  }
  bool Interrupt() override { return false; }
  void SetRepl(int) override {}
  void Log(int, std::string_view) override {}
};

void RunCases(const std::vector<Case>& cases) {
  Interpreter interpreter;
  NoCommandsHost host;
  for (const Case& c : cases) {
    std::string body = (c.hex ? std::string(kHexHelper) : std::string()) + c.script;
    std::string sha = Sha1Hex(body);
    std::string out;
    resp::ReplyWriter writer(&out, 2);
    std::string error;
    if (interpreter.Define("f_" + sha, body, &error)) {
      interpreter.Execute({.function = "f_" + sha, .sha = sha}, host, writer);
    } else {
      writer.Error(error);
    }
    EXPECT_EQ(out, c.reply) << c.script;
  }
}
TEST(LibrariesTest, Struct) {
  RunCases({
      {true, "return hex(struct.pack('>i2<i2Bbhl', 1, 2, 255, -1, -2, -3))",
       "$32\r\n00010200fffffefffdffffffffffffff\r\n"},
      {true, "return hex(struct.pack('!4 b i4 d', 1, 2, 3.5))",
       "$32\r\n01000000020000000000000000000c40\r\n"},
      {true, "return hex(struct.pack('>I16 i3', -1, -2))",
       "$38\r\n0000000000000000fffffffffffffffffffffe\r\n"},
      {true, "return hex(struct.pack('sc3c0x', 'ab', 'xyz', 'hello'))",
       "$24\r\n61620078797a68656c6c6f00\r\n"},
      {true, "return hex(struct.pack('<f>d', 1.5, -2.25))", "$24\r\n0000c03fc002000000000000\r\n"},
      {true, "return hex(struct.pack('>L>l', 2^64, 1e30))",
       "$32\r\n00000000000000000000000000000000\r\n"},
      {true, "return hex(struct.pack('>L', 0/0))", "$16\r\n8000000000000000\r\n"},
      {true, "return hex(struct.pack('>l', -1e30))", "$16\r\n8000000000000000\r\n"},
      {false,
       "return {struct.unpack('>i2<i2Bbhl', struct.pack('>i2<i2Bbhl', 1, 2, 255, -1, -2, -3))}",
       "*7\r\n:1\r\n:2\r\n:255\r\n:-1\r\n:-2\r\n:-3\r\n:17\r\n"},
      {false, "return {struct.unpack('>I16', string.rep('\\255', 16))}",
       "*2\r\n:-9223372036854775808\r\n:17\r\n"},
      {false, "return {struct.unpack('>i16', string.rep('\\255', 16))}", "*2\r\n:-1\r\n:17\r\n"},
      {false, "return {struct.unpack('b c0 s', '\\3abcxy\\0z')}",
       "*3\r\n$3\r\nabc\r\n$2\r\nxy\r\n:8\r\n"},
      {false, "return {struct.unpack('c0', '2ab')}",
       "-ERR user_script:1: format 'c0' needs a previous size script: "
       "c44865be504490d6d2e54976de392ea9087d6648, on @user_script:1.\r\n"},
      {false, "return {struct.unpack('i2', 'abc', 2)}", "*2\r\n:25442\r\n:4\r\n"},
      {false, "return {tostring(struct.unpack('<f', struct.pack('<f', 1.5)))}",
       "*1\r\n$3\r\n1.5\r\n"},
      {false, "return {struct.size('>i2 !8 d'), struct.size('xbhlLTfdi8'), struct.size('zzz')}",
       "*3\r\n:16\r\n:48\r\n:0\r\n"},
      {false, "return struct.size('s')",
       "-ERR user_script:1: bad argument #1 to 'size' (option 's' has no fixed size) script: "
       "a2a0525826ab7939ccd3f54427a862205642f28f, on @user_script:1.\r\n"},
      {false, "return struct.size('c0')",
       "-ERR user_script:1: bad argument #1 to 'size' (option 'c0' has no fixed size) script: "
       "18f217e7d560de92703dc71e9797e043b536e0e6, on @user_script:1.\r\n"},
      {false, "return struct.pack('i33', 1)",
       "-ERR user_script:1: integral size 33 is larger than limit of 32 script: "
       "0a76c071d82805e752befa6958961c98c39f358f, on @user_script:1.\r\n"},
      {false, "return struct.pack('i99999999999', 1)",
       "-ERR user_script:1: integral size overflow script: "
       "55da9dc87c031781cab77cd7caa7180a2f334e7e, on @user_script:1.\r\n"},
      {false, "return struct.pack('!3', 1)",
       "-ERR user_script:1: alignment 3 is not a power of 2 script: "
       "015083070625e0c8535172e55b13a94acdf4c3c6, on @user_script:1.\r\n"},
      {false, "return struct.pack('q', 1)",
       "-ERR user_script:1: bad argument #1 to 'pack' (invalid format option 'q') script: "
       "49599a2466f241bd45a2bd4f631df3a1a1ec9790, on @user_script:1.\r\n"},
      {false, "return struct.pack('c5', 'ab')",
       "-ERR user_script:1: bad argument #3 to 'pack' (string too short) script: "
       "cec53901ab5000b5eccda51f64e59e716bdfd4ba, on @user_script:1.\r\n"},
      {false, "return struct.pack('i', 'x')",
       "-ERR user_script:1: bad argument #2 to 'pack' (number expected, got string) script: "
       "72d01f23645269179316b093775c7fa64478554a, on @user_script:1.\r\n"},
      {false, "return struct.unpack('i4', 'ab')",
       "-ERR user_script:1: bad argument #2 to 'unpack' (data string too short) script: "
       "949ee49db07ed6027a5414161022ae84757a7ac2, on @user_script:1.\r\n"},
      {false, "return struct.unpack('c0', 'ab')",
       "-ERR user_script:1: format 'c0' needs a previous size script: "
       "1194ec226e35add4f9e71fd60070cb29f56d3b57, on @user_script:1.\r\n"},
      {false, "return struct.unpack('s', 'ab')",
       "-ERR user_script:1: unfinished string in data script: "
       "9c7491f053871f61d28a808e1476c7ec12a5e99e, on @user_script:1.\r\n"},
      {false, "return struct.pack()",
       "-ERR user_script:1: bad argument #1 to 'pack' (string expected, got no value) script: "
       "c9b8aed4f0633591e6252db264bf8b86b82828d5, on @user_script:1.\r\n"},
      {false, "return {struct.unpack('b', 'a', 5)}",
       "-ERR user_script:1: bad argument #2 to 'unpack' (data string too short) script: "
       "f84d11b98f426f75cec5526b2d6138c441b96316, on @user_script:1.\r\n"},
      {false, "return {struct.unpack('b', 'a', 0)}",
       "-ERR user_script:1: bad argument #3 to 'unpack' (offset must be 1 or greater) script: "
       "a5532e28f95a0b6d1467240132a2e6a6f3c68cc4, on @user_script:1.\r\n"},
      {false, "return {struct.unpack('b', 'a', -1)}",
       "-ERR user_script:1: bad argument #2 to 'unpack' (data string too short) script: "
       "68fe57a8a97603f04f97ce44a6608c5e1f5f1e6c, on @user_script:1.\r\n"},
      {false, "return {struct.unpack('', 'a', 2)}", "*1\r\n:2\r\n"},
      {false, "return {struct.unpack('i1 c0', '\\9ab')}",
       "-ERR user_script:1: bad argument #2 to 'unpack' (data string too short) script: "
       "345b6c61755291d8fb8374169277e1c39851c48b, on @user_script:1.\r\n"},
      {false, "return {struct.unpack('i1 c0', '\\2ab')}", "*2\r\n$2\r\nab\r\n:4\r\n"},
      {false, "return {struct.unpack('c0', '1')}",
       "-ERR user_script:1: format 'c0' needs a previous size script: "
       "11addf7a5d79e5b0da3dc6dad83c0dccb9c9e27c, on @user_script:1.\r\n"},
      {false, "return {struct.unpack('q', 'ab')}",
       "-ERR user_script:1: bad argument #1 to 'unpack' (invalid format option 'q') script: "
       "6bdb0b7d0f38e59ce78c70f0605cbceb93c34690, on @user_script:1.\r\n"},
      {false, "return {struct.unpack('i0', 'ab')}", "*2\r\n:0\r\n:1\r\n"},
      {true, "return hex(struct.pack('i0 i3 >i3', 1, 1, -2))", "$12\r\n010000fffffe\r\n"},
  });
}

TEST(LibrariesTest, Cmsgpack) {
  RunCases({
      {true,
       "return hex(cmsgpack.pack(1, -1, 127, 128, 255, 256, 65535, 65536, 4294967295, 4294967296, "
       "-32, -33, -128, -129, -32768, -32769, -2147483648, -2147483649))",
       "$124\r\n01ff7fcc80ccffcd0100cdffffce00010000ceffffffffcf0000000100000000e0d0dfd080d1ff7fd18"
       "000d2ffff7fffd280000000d3ffffffff7fffffff\r\n"},
      {true, "return hex(cmsgpack.pack(1.5, 0.1, 1/0, -1/0, 2^63, -2^63, 1e300, true, false, nil))",
       "$100\r\nca3fc00000cb3fb999999999999aca7f800000caff800000ca5f000000d38000000000000000cb7e37e"
       "43c8800759cc3c2c0\r\n"},
      {true, "return hex(cmsgpack.pack('', 'abc', string.rep('x', 31), string.rep('y', 32)))",
       "$142\r\na0a3616263bf78787878787878787878787878787878787878787878787878787878787878d92079797"
       "97979797979797979797979797979797979797979797979797979797979\r\n"},
      {true, "return hex(cmsgpack.pack(string.rep('z', 300)):sub(1, 4))", "$8\r\nda012c7a\r\n"},
      {true, "return hex(cmsgpack.pack({1,2,3}, {}, {a=1}, {[1]=1,[3]=3}, {[0]=5}, {[1.5]=1}))",
       "$48\r\n930102039081a16101820101030381000581ca3fc0000001\r\n"},
      {true, "local t = {} for i=1,16 do t[i]=i end return hex(cmsgpack.pack(t))",
       "$38\r\ndc00100102030405060708090a0b0c0d0e0f10\r\n"},
      {true, "local t = {} t[1] = t return hex(cmsgpack.pack(t))",
       "$34\r\n91919191919191919191919191919191c0\r\n"},
      {true, "return hex(cmsgpack.pack(function() end, cjson.null))", "$4\r\nc0c0\r\n"},
      {false,
       "return {cmsgpack.unpack(cmsgpack.pack(1, -1, 'abc', 255, -129, 65536, -2147483649))}",
       "*7\r\n:1\r\n:-1\r\n$3\r\nabc\r\n:255\r\n:-129\r\n:65536\r\n:-2147483649\r\n"},
      {false,
       "return {tostring(cmsgpack.unpack(cmsgpack.pack(1.5))), "
       "tostring(cmsgpack.unpack(cmsgpack.pack(0.1)))}",
       "*2\r\n$3\r\n1.5\r\n$3\r\n0.1\r\n"},
      {false, "return cmsgpack.unpack(cmsgpack.pack({1,2,{3,'x'}}))",
       "*3\r\n:1\r\n:2\r\n*2\r\n:3\r\n$1\r\nx\r\n"},
      {false, "local t = cmsgpack.unpack(cmsgpack.pack({a=1,b={c=2}})) return {t.a, t.b.c}",
       "*2\r\n:1\r\n:2\r\n"},
      {false, "return {tostring(cmsgpack.unpack('\\207\\255\\255\\255\\255\\255\\255\\255\\255'))}",
       "*1\r\n$2\r\n-1\r\n"},
      {false, "return {tostring(cmsgpack.unpack('\\211\\128\\0\\0\\0\\0\\0\\0\\0'))}",
       "*1\r\n$20\r\n-9.2233720368548e+18\r\n"},
      {false,
       "return {tostring(cmsgpack.unpack('\\209\\255\\128')), "
       "tostring(cmsgpack.unpack('\\210\\255\\255\\255\\128'))}",
       "*2\r\n$4\r\n-128\r\n$4\r\n-128\r\n"},
      {false, "return {cmsgpack.unpack_one(cmsgpack.pack(1, 2, 3))}", "*2\r\n:1\r\n:1\r\n"},
      {false, "return {cmsgpack.unpack_one(cmsgpack.pack(1, 2, 3), 1)}", "*2\r\n:2\r\n:2\r\n"},
      {false, "return {cmsgpack.unpack_one(cmsgpack.pack(1, 2, 3), 2)}", "*2\r\n:-1\r\n:3\r\n"},
      {false, "return {cmsgpack.unpack_limit(cmsgpack.pack(1, 2, 3), 2)}",
       "*3\r\n:2\r\n:1\r\n:2\r\n"},
      {false, "return {cmsgpack.unpack_limit(cmsgpack.pack(1, 2, 3), 0)}",
       "*3\r\n:1\r\n:2\r\n:3\r\n"},
      {false, "return {cmsgpack.unpack_limit(cmsgpack.pack(1, 2, 3), 5, 1)}",
       "*3\r\n:-1\r\n:2\r\n:3\r\n"},
      {false, "return cmsgpack.unpack('\\205\\1')",
       "-ERR user_script:1: Missing bytes in input. script: "
       "4679240a23ff9735759d614fd4b677cab6fb1b9a, on @user_script:1.\r\n"},
      {false, "return cmsgpack.unpack('\\193')",
       "-ERR user_script:1: Bad data format in input. script: "
       "dc135bd7bc2955014f03280e151acf74360378e7, on @user_script:1.\r\n"},
      {false, "return cmsgpack.unpack_one('abc', -1)",
       "-ERR user_script:1: Invalid request to unpack with offset of -1 and limit of 3. script: "
       "008013fe85557ab6cd81661d5e22e649a9e8da7c, on @user_script:1.\r\n"},
      {false, "return cmsgpack.unpack_one('abc', 10)",
       "-ERR user_script:1: Start offset 10 greater than input length 3. script: "
       "06d8b1f4a797089f2dcf370427eabc1453bcbccd, on @user_script:1.\r\n"},
      {false, "return cmsgpack.pack()",
       "-ERR user_script:1: bad argument #0 to 'pack' (MessagePack pack needs input.) script: "
       "6bc235afa55de88253e203cc5fe5844792e25209, on @user_script:1.\r\n"},
      {false,
       "return {cmsgpack._NAME, cmsgpack._VERSION, cmsgpack._COPYRIGHT, cmsgpack._DESCRIPTION}",
       "*4\r\n$8\r\ncmsgpack\r\n$18\r\nlua-cmsgpack 0.4.0\r\n$40\r\nCopyright (C) 2012, Salvatore "
       "Sanfilippo\r\n$36\r\nMessagePack C implementation for Lua\r\n"},
      {false, "return {cmsgpack.unpack('')}", "*0\r\n"},
      {true, "return hex(cmsgpack.pack(-2^63 - 4096, 2^53, -0.0, 0/0))",
       "$56\r\ncbc3e0000000000002cf002000000000000000cbfff8000000000000\r\n"},
      {false, "return {cmsgpack.unpack('\\147\\1\\2')}",
       "-ERR user_script:1: Missing bytes in input. script: "
       "e7e23eed00f4656341e2605c4cce48f8dc27eb48, on @user_script:1.\r\n"},
      {false, "return {cmsgpack.unpack('\\1\\2\\3')}", "*3\r\n:1\r\n:2\r\n:3\r\n"},
      {false, "return {cmsgpack.unpack_limit('\\1\\2\\3', -1)}",
       "-ERR user_script:1: Invalid request to unpack with offset of 0 and limit of 3. script: "
       "a61504c604879e3b4b9e8da20ce1ee48942ccd0b, on @user_script:1.\r\n"},
      {false, "return {cmsgpack.unpack_limit('\\1\\2\\3', 1, 3)}", "*1\r\n:-1\r\n"},
      {false, "return {cmsgpack.unpack_one('')}", "*1\r\n:-1\r\n"},
      {true,
       "local t = setmetatable({}, {__index = function(t, k) return k * 10 end}) rawset(t, 1, 1) "
       "rawset(t, 2, 2) return hex(cmsgpack.pack(t))",
       "$6\r\n920102\r\n"},
  });
}

TEST(LibrariesTest, Cjson) {
  RunCases({
      {false, "return cjson.encode({1, 2, 3, {a = 1}})", "$15\r\n[1,2,3,{\"a\":1}]\r\n"},
      {false, "return cjson.encode({a = {b = {c = 'x'}}})",
       "$21\r\n{\"a\":{\"b\":{\"c\":\"x\"}}}\r\n"},
      {false, "return cjson.encode({1.5, 0.1, 1e20, -0.0, 123456789012345})",
       "$38\r\n[1.5,0.1,1e+20,-0,1.2345678901234e+14]\r\n"},
      {false, "return cjson.encode('a\"b\\\\c\\n\\1/')", "$19\r\n\"a\\\"b\\\\c\\n\\u0001\\/\"\r\n"},
      {false, "return cjson.encode({})", "$2\r\n{}\r\n"},
      {false, "return cjson.encode(cjson.null)", "$4\r\nnull\r\n"},
      {false, "return cjson.encode({[1]=1, [3]=3})", "$10\r\n[1,null,3]\r\n"},
      {false, "return cjson.encode({[1]=1, [30]=3})",
       "-ERR user_script:1: Cannot serialise table: excessively sparse array script: "
       "b96741d10e57e94d4a31b09e1da31d3ef047eb25, on @user_script:1.\r\n"},
      {false, "return cjson.encode(1/0)",
       "-ERR user_script:1: Cannot serialise number: must not be NaN or Inf script: "
       "08ffdaa5e7f117332da21c3b5222c2ede9492c60, on @user_script:1.\r\n"},
      {false, "return cjson.encode(function() end)",
       "-ERR user_script:1: Cannot serialise function: type not supported script: "
       "c6600573aa08cdf0af5da6e0ef682db69a3acc00, on @user_script:1.\r\n"},
      {false, "return {cjson._NAME, cjson._VERSION}", "*2\r\n$5\r\ncjson\r\n$5\r\n2.1.0\r\n"},
      {false,
       "local t = cjson.decode('{\"a\":[1,2,{\"b\":null}],\"c\":true,\"d\":1.5e3}') return "
       "{t.a[1], t.a[3].b == cjson.null, tostring(t.c), t.d}",
       "*4\r\n:1\r\n:1\r\n$4\r\ntrue\r\n:1500\r\n"},
      {false, "return cjson.decode('[1,2')",
       "-ERR user_script:1: Expected comma or array end but found T_END at character 5 script: "
       "c107001b5ba2ff860ee2557f64da37c4767ef4bd, on @user_script:1.\r\n"},
      {false, "return cjson.decode('\"\\\\u00e9\"')", "$2\r\n\303\251\r\n"},
      {false, "return cjson.decode('{\"a\":1e999}')", "*0\r\n"},
      {false, "return cjson.encode(cjson.decode('[1e400]'))",
       "-ERR user_script:1: Cannot serialise number: must not be NaN or Inf script: "
       "85434965e4487ff60bd08be9e5a242081c166c25, on @user_script:1.\r\n"},
      {false,
       "local t = cjson.decode('[' .. string.rep('[', 1100) .. string.rep(']', 1100) .. ']') "
       "return 1",
       "-ERR user_script:1: Found too many nested data structures (1001) at character 1001 script: "
       "b3b531617f4d10572c0810deff7ece26937c0881, on @user_script:1.\r\n"},
      {false, "return cjson.encode({a=1, b=2})", "$13\r\n{\"a\":1,\"b\":2}\r\n"},
      {false, "return cjson.encode_keep_buffer(false)", "$-1\r\n"},
      {false, "return cjson.encode({1, 'two', false, cjson.null, {}})",
       "$23\r\n[1,\"two\",false,null,{}]\r\n"},
      {false, "local t = {} t[1] = t return cjson.encode(t)",
       "-ERR user_script:1: Cannot serialise, excessive nesting (1001) script: "
       "576653f0096d47f87063058b9abe9085cdcd4f41, on @user_script:1.\r\n"},
      {false, "return cjson.decode('{\"a\":1}').a", ":1\r\n"},
      {false, "return {cjson.decode('[1, 2, 3.25, \"x\", false]')}",
       "*1\r\n*5\r\n:1\r\n:2\r\n:3\r\n$1\r\nx\r\n$-1\r\n"},
      {false, "return cjson.decode('nul')",
       "-ERR user_script:1: Expected value but found invalid token at character 1 script: "
       "5586fdf8c512d9c8a68678c91a0de23617e84e25, on @user_script:1.\r\n"},
  });
}

TEST(LibrariesTest, Bit) {
  RunCases({
      {false,
       "return {bit.band(0xff, 0x0f), bit.bor(1, 2), bit.bxor(3, 1), bit.bnot(0), bit.lshift(1, "
       "31), bit.rshift(-1, 28), bit.arshift(-16, 2), bit.rol(1, 33), bit.ror(1, 1), "
       "bit.bswap(0x01020304), bit.tohex(255), bit.tohex(-1, -4), bit.tobit(2^32 + 5)}",
       "*13\r\n:15\r\n:3\r\n:2\r\n:-1\r\n:-2147483648\r\n:15\r\n:-4\r\n:2\r\n:-2147483648\r\n:"
       "67305985\r\n$8\r\n000000ff\r\n$4\r\nFFFF\r\n:5\r\n"},
      {false, "return bit.band('x')",
       "-ERR user_script:1: bad argument #1 to 'band' (number expected, got string) script: "
       "d35c9a1d4f4825ae2c0656c3cb8c9f397ca6d9b1, on @user_script:1.\r\n"},
      {false, "return bit.tohex(65535, 2)", "$2\r\nff\r\n"},
      // A count of -2^31 (stock lua-bitop crashes on it): eight upper-case digits, as Redis.
      {false, "return {bit.tohex(255, 2^31), bit.tohex(255, -2^31), bit.tohex(-1, -9)}",
       "*3\r\n$8\r\n000000FF\r\n$8\r\n000000FF\r\n$8\r\nFFFFFFFF\r\n"},
      {false, "return bit.tohex('x')",
       "-ERR user_script:1: bad argument #1 to 'tohex' (number expected, got string) script: "
       "df48a49b4a462b1327d5fad577e7cc1fae9a2ee2, on @user_script:1.\r\n"},
  });
}

}  // namespace
}  // namespace redlab::server::scripting
