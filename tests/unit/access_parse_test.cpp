// The parsers of the access facts: systemd units, mountinfo's device mounts, the NVIDIA
// driver's DeviceFile parameters, CDI specs, /dev/dri/by-path names.
#include <gtest/gtest.h>

#include "parse/device_access.hpp"

namespace gpudoctor {
namespace {

TEST(UnitAccounts, OllamasUnitAndADropInThatAddsRender) {
  // The unit of https://github.com/ollama/ollama/blob/main/docs/linux.md.
  UnitAccount a;
  apply_unit_accounts(
      "[Unit]\nDescription=Ollama Service\nAfter=network-online.target\n\n[Service]\n"
      "ExecStart=/usr/bin/ollama serve\nUser=ollama\nGroup=ollama\nRestart=always\n"
      "RestartSec=3\nEnvironment=\"PATH=$PATH\"\n\n[Install]\nWantedBy=default.target\n",
      a);
  EXPECT_EQ(a.user, "ollama");
  EXPECT_EQ(a.group, "ollama");
  EXPECT_TRUE(a.supplementary_groups.empty());
  // A drop-in (stand-in text, the form systemd.exec(5) gives): lists add up, "" clears.
  apply_unit_accounts("[Service]\nSupplementaryGroups=video\nSupplementaryGroups=render  kvm\n", a);
  EXPECT_EQ(a.supplementary_groups, (std::vector<std::string>{"video", "render", "kvm"}));
  apply_unit_accounts("[Service]\nSupplementaryGroups=\nSupplementaryGroups=render\n", a);
  EXPECT_EQ(a.supplementary_groups, std::vector<std::string>{"render"});
  // Keys outside [Service] are not the service's.
  apply_unit_accounts("[Install]\nUser=root\n[Service]\nDynamicUser=yes\n", a);
  EXPECT_EQ(a.user, "ollama");
  EXPECT_TRUE(a.dynamic_user);
}

TEST(DeviceMounts, OnlyGpuDeviceFilesAndDri) {
  // Stand-in lines in proc(5)'s mountinfo format: a bind-mounted /dev/dri, a --device'd
  // /dev/kfd, and lines that are no GPU's.
  const auto m = parse_device_mounts(
      "1250 1240 0:5 /dri /dev/dri rw,nosuid - devtmpfs udev rw,size=16318212k\n"
      "1251 1240 0:5 /kfd /dev/kfd rw,nosuid master:2 - devtmpfs udev rw\n"
      "1252 1240 0:5 /null /dev/null rw - devtmpfs udev rw\n"
      "1253 1240 0:52 / /dev/shm rw - tmpfs shm rw\n");
  ASSERT_EQ(m.size(), 2u);
  EXPECT_EQ(m[0].mount_point, "/dev/dri");
  EXPECT_EQ(m[0].root, "/dri");
  EXPECT_EQ(m[0].fs_type, "devtmpfs");
  EXPECT_EQ(m[0].source, "udev");
  EXPECT_EQ(m[1].mount_point, "/dev/kfd");
  EXPECT_EQ(m[1].fs_type, "devtmpfs");  // after an optional field
}

TEST(NvidiaParams, DeviceFileLinesOnly) {
  // The DeviceFile lines of Gentoo's modprobe.d file, as the driver shows them
  // (https://github.com/gentoo/gentoo/blob/master/x11-drivers/nvidia-drivers/files/nvidia-570.conf).
  const auto p = parse_nvidia_device_file_params(
      "ResmanDebugLevel: 4294967295\nModifyDeviceFiles: 1\nDeviceFileUID: 0\n"
      "DeviceFileGID: 27\nDeviceFileMode: 432\nRegistryDwords: \"\"\n");
  ASSERT_TRUE(p);
  EXPECT_EQ(p->modify, true);
  EXPECT_EQ(p->uid, 0u);
  EXPECT_EQ(p->gid, 27u);
  EXPECT_EQ(p->mode, 432u);
  EXPECT_FALSE(parse_nvidia_device_file_params("EnableMSI: 1\n"));
}

TEST(CdiSpecs, KindAtTheTopLevelOnly) {
  // The head of a spec `nvidia-ctk cdi generate` writes (cdiVersion, kind, devices).
  EXPECT_EQ(cdi_spec_kind("---\ncdiVersion: 0.5.0\nkind: nvidia.com/gpu\ndevices:\n- name: \"0\"\n"),
            "nvidia.com/gpu");
  EXPECT_EQ(cdi_spec_kind("{\n  \"cdiVersion\": \"0.6.0\",\n  \"kind\": \"amd.com/gpu\",\n}"),
            "amd.com/gpu");
  EXPECT_FALSE(cdi_spec_kind("devices:\n  - name: all\n    kind: nested\n"));
}

TEST(CdiSpecs, DeviceNodePathsInYamlAndJson) {
  // nvidia-ctk's YAML: deviceNodes paths; a hook's path and a mount's hostPath are not /dev.
  const char* yaml =
      "kind: nvidia.com/gpu\ndevices:\n- name: \"0\"\n  containerEdits:\n    deviceNodes:\n"
      "    - path: /dev/nvidia0\n    - path: /dev/dri/renderD129\n- name: all\n"
      "  containerEdits:\n    deviceNodes:\n    - path: /dev/nvidia0\n"
      "containerEdits:\n  hooks:\n  - path: /usr/bin/nvidia-cdi-hook\n  mounts:\n"
      "  - hostPath: /usr/lib/x86_64-linux-gnu/libcuda.so.560.35.03\n"
      "    containerPath: /dev/shm-not-a-device-key\n";
  EXPECT_EQ(cdi_spec_device_paths(yaml),
            (std::vector<std::string>{"/dev/nvidia0", "/dev/dri/renderD129"}));
  const char* json =
      "{\"kind\":\"nvidia.com/gpu\",\"devices\":[{\"name\":\"0\",\"containerEdits\":"
      "{\"deviceNodes\":[{\"path\":\"/dev/nvidia1\",\"hostPath\":\"/dev/nvidia1\"}]}}]}";
  EXPECT_EQ(cdi_spec_device_paths(json), std::vector<std::string>{"/dev/nvidia1"});
  EXPECT_TRUE(cdi_spec_device_paths("kind: nvidia.com/gpu\n").empty());
}

TEST(CdiSpecs, DeviceMajorsBelongToThePathBeforeThem) {
  // The spec of NVIDIA/nvidia-container-toolkit#1934: nvidia-uvm and its tools node at 510.
  const char* yaml =
      "kind: nvidia.com/gpu\ncontainerEdits:\n  deviceNodes:\n  - path: /dev/nvidiactl\n"
      "  - path: /dev/nvidia-uvm\n    major: 510\n  - path: /dev/nvidia-uvm-tools\n"
      "    major: 510\n    minor: 1\n";
  EXPECT_EQ(cdi_spec_device_majors(yaml),
            (std::vector<std::pair<std::string, int>>{{"/dev/nvidia-uvm", 510},
                                                      {"/dev/nvidia-uvm-tools", 510}}));
  const char* json =
      "{\"deviceNodes\":[{\"path\":\"/dev/nvidia0\",\"major\":195,\"minor\":0},"
      "{\"path\":\"/dev/dri/card1\",\"type\":\"c\",\"major\": 226}]}";
  EXPECT_EQ(cdi_spec_device_majors(json),
            (std::vector<std::pair<std::string, int>>{{"/dev/nvidia0", 195},
                                                      {"/dev/dri/card1", 226}}));
  // A "major" that is not a key, or before any device path, is no device's.
  EXPECT_TRUE(cdi_spec_device_majors("major: 5\nkind: nvidia.com/gpu\n# major version\n").empty());
}

TEST(ProcDevices, CharacterMajorsByDriverName) {
  const auto majors = character_device_majors(
      "Character devices:\n  1 mem\n195 nvidia-frontend\n226 drm\n509 nvidia-uvm\n\n"
      "Block devices:\n  8 sd\n");
  EXPECT_EQ(majors.at("nvidia-uvm"), 509);
  EXPECT_EQ(majors.at("drm"), 226);
  EXPECT_EQ(majors.count("sd"), 0u);  // a block device
  EXPECT_EQ(character_device_driver("/dev/nvidia-uvm-tools"), "nvidia-uvm");
  EXPECT_EQ(character_device_driver("/dev/nvidia3"), "nvidia");
  EXPECT_EQ(character_device_driver("/dev/nvidiactl"), "nvidiactl");
  EXPECT_EQ(character_device_driver("/dev/dri/renderD128"), "drm");
  EXPECT_EQ(character_device_driver("/dev/nvidia-caps/nvidia-cap1"), "nvidia-caps");
}

TEST(DriByPath, PciAddressOfTheLinkName) {
  EXPECT_EQ(pci_address_of_by_path("pci-0000:03:00.0-render"), "0000:03:00.0");
  EXPECT_EQ(pci_address_of_by_path("pci-0000:C1:00.0-card"), "0000:c1:00.0");
  EXPECT_FALSE(pci_address_of_by_path("platform-simple-framebuffer.0-card"));
}

TEST(GpuDevicePaths, TheFilesAGpuStackOpens) {
  for (const char* p : {"/dev/nvidia0", "/dev/nvidiactl", "/dev/nvidia-uvm",
                        "/dev/nvidia-caps/nvidia-cap1", "/dev/kfd", "/dev/dxg", "/dev/dri/card1",
                        "/dev/dri/renderD128"}) {
    EXPECT_TRUE(is_gpu_device_path(p)) << p;
  }
  for (const char* p : {"/dev/dri", "/dev/dri/by-path", "/dev/null", "/dev/fb0"}) {
    EXPECT_FALSE(is_gpu_device_path(p)) << p;
  }
}

}  // namespace
}  // namespace gpudoctor
