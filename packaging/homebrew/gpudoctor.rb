# Homebrew formula that builds gpudoctor from this repository (HEAD only: no release tarball).
#   packaging/homebrew/install-head.sh   puts it in a local tap and runs `brew install --HEAD`
# or, with this file in any tap:
#   HOMEBREW_GPUDOCTOR_REPO=/path/to/clone brew install --HEAD gpudoctor
# brew hands a formula only HOMEBREW_* variables, hence the name; without it the formula builds
# the clone it sits in. A release formula (the url and sha256 of a tarball) is written by
# make-formula.sh from gpudoctor.rb.in; tests/replay/homebrew_formula_test.cpp keeps the two
# alike.
class Gpudoctor < Formula
  REPO = ENV.fetch("HOMEBREW_GPUDOCTOR_REPO") { File.expand_path("../..", __dir__) }.freeze

  desc "Diagnose the GPU compute stack and say what to fix"
  homepage "file://#{REPO}"
  license "Apache-2.0"
  head REPO, using: :git

  depends_on "cli11" => :build
  depends_on "cmake" => :build
  depends_on "glslang" => :build
  depends_on "ninja" => :build
  depends_on "nlohmann-json" => :build
  depends_on "opencl-headers" => :build
  depends_on "pkgconf" => :build
  depends_on "vulkan-headers" => :build

  on_linux do
    depends_on "pciutils"
  end

  def install
    # opencl-headers is keg-only on macOS (OpenCL.framework shadows it): name its include dir.
    args = %W[
      -DGPUDOCTOR_BUILD_TESTS=OFF
      -DOPENCL_INCLUDE_DIR=#{Formula["opencl-headers"].opt_include}
    ]
    system "cmake", "-S", ".", "-B", "build", "-G", "Ninja", *args, *std_cmake_args
    system "cmake", "--build", "build"
    system "cmake", "--install", "build"
  end

  test do
    # A HEAD build's version is HEAD-<commit>: the name is what is certain.
    assert_match "gpudoctor", shell_output("#{bin}/gpudoctor --version")
    # explain reads only the check list, so it needs no GPU on the machine that tests.
    assert_match "nouveau", shell_output("#{bin}/gpudoctor explain nvidia.nouveau_bound")
    assert_path_exists man1/"gpudoctor.1"
  end
end
