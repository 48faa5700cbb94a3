# Writes OUT, a C++ file that defines gpudoctor::builtin_pci_ids() from the GPU vendors' part of
# the installed pci.ids (IDS): the device lines of NVIDIA (10de) and AMD (1002) less their
# chipset, audio and USB functions, Intel's (8086) display devices, and the names of the
# display, co-processor and accelerator classes. Subsystem lines are left out. Run as:
# cmake -DIDS=/usr/share/misc/pci.ids -DOUT=... -P embed_pci_ids.cmake
#
# Every name is kept as pci.ids writes it. Square brackets and semicolons would confuse CMake's
# lists, so they travel as placeholders until each line is written out.
cmake_minimum_required(VERSION 3.20)  # a -P script sets no policies of its own
file(READ "${IDS}" text)
string(REPLACE "\r" "" text "${text}")
string(REPLACE "[" "<LB>" text "${text}")
string(REPLACE "]" "<RB>" text "${text}")
string(REPLACE ";" "<SC>" text "${text}")
string(REGEX MATCH "#[ \t]*Version:[ \t]*[^\n]*" version_line "${text}")
string(REGEX REPLACE "#[ \t]*Version:[ \t]*" "" version "${version_line}")
if(version STREQUAL "")
  set(version "unknown")
endif()

# Functions of GPU vendors that are not GPUs (nForce chipsets, HDMI audio, USB-C controllers,
# PCIe switch ports): left out unless the line names a product in brackets.
set(not_gpu "Audio|USB|UCSI|SMBus|LPC|IDE|SATA|Serial ATA|Ethernet|Bridge|[Mm]emory [Cc]ontroller|FireWire|Modem|ISA|System Management|Host|Co-?[Pp]rocessor|Network|PCI Express|PCIe|Switch|Controller|Port|Hub|I2C|SPI|UART|GPIO|Thermal|Sensor|Root|DMA|Crypto|Platform|RAID")
# Intel makes far more than GPUs: only its graphics devices are kept.
set(intel_gpu "Graphics|Iris|UHD|<LB>Arc|Arc |DG[12]|Xe |Xe<RB>|Xe$|GPU|GMA|GT[1-4]|Display")
set(intel_not_gpu "Audio|Port|Hub|Bridge|Memory Controller")

set(rows "")
set(vendors "")
set(names "")
set(offset 0)

# Appends NAME to the names blob (NUL terminated); sets name_offset to where it starts.
macro(add_name name)
  set(name_offset ${offset})
  set(n "${name}")
  string(REPLACE "<LB>" "[" n "${n}")
  string(REPLACE "<RB>" "]" n "${n}")
  string(REPLACE "<SC>" ";" n "${n}")
  string(LENGTH "${n}" len)
  math(EXPR offset "${offset} + ${len} + 1")
  string(REPLACE "\\" "\\\\" n "${n}")
  string(REPLACE "\"" "\\\"" n "${n}")
  string(APPEND names "    \"${n}\\0\"\n")
endmacro()

# The section that starts with the line HEADER (a vendor's "10de  NVIDIA Corporation", a
# class's "C 03  Display controller"): sets <out>_title to that line's name and <out> to the
# list of its entries one level in ("\t<id>  <name>"), comments and subsystems skipped. MAX is
# how many characters the section may span.
function(section_entries header max out)
  string(FIND "${text}" "\n${header}  " start)
  if(start EQUAL -1)
    set(${out} "" PARENT_SCOPE)
    set(${out}_title "" PARENT_SCOPE)
    return()
  endif()
  math(EXPR start "${start} + 1")
  string(SUBSTRING "${text}" ${start} ${max} section)
  string(REPLACE "\n" ";" lines "${section}")
  list(POP_FRONT lines title)
  string(REGEX REPLACE "^[^ ]+( [0-9a-f]+)?  " "" title "${title}")
  set(entries "")
  foreach(line IN LISTS lines)
    if(line MATCHES "^#" OR line STREQUAL "" OR line MATCHES "^\t\t")
      continue()
    endif()
    if(NOT line MATCHES "^\t[0-9a-f]+  ")
      break()  # the next section
    endif()
    list(APPEND entries "${line}")
  endforeach()
  set(${out} "${entries}" PARENT_SCOPE)
  set(${out}_title "${title}" PARENT_SCOPE)
endfunction()

foreach(vendor 1002 10de 8086)
  # 600 KB holds any of the three sections (Intel's, the longest, is about 250 KB).
  section_entries("${vendor}" 600000 devices)
  if(devices_title STREQUAL "")
    message(FATAL_ERROR "${IDS}: no vendor ${vendor}")
  endif()
  add_name("${devices_title}")
  string(APPEND vendors "    {0x${vendor}, ${name_offset}},\n")
  foreach(line IN LISTS devices)
    string(REGEX MATCH "^\t([0-9a-f][0-9a-f][0-9a-f][0-9a-f])  (.*)$" ok "${line}")
    if(NOT ok)
      continue()
    endif()
    set(device "${CMAKE_MATCH_1}")
    set(name "${CMAKE_MATCH_2}")
    if(vendor STREQUAL "8086")
      if(NOT name MATCHES "${intel_gpu}" OR name MATCHES "${intel_not_gpu}")
        continue()
      endif()
    elseif(name MATCHES "${not_gpu}" AND NOT name MATCHES "<LB>")
      continue()
    endif()
    add_name("${name}")
    string(APPEND rows "    {0x${vendor}, 0x${device}, ${name_offset}},\n")
  endforeach()
endforeach()

# Class names at the subclass level, as libpci's PCI_LOOKUP_CLASS gives them.
set(classes "")
foreach(cls 03 0b 12)
  section_entries("C ${cls}" 4000 subclasses)
  foreach(line IN LISTS subclasses)
    string(REGEX MATCH "^\t([0-9a-f][0-9a-f])  (.*)$" ok "${line}")
    if(NOT ok OR (cls STREQUAL "0b" AND NOT CMAKE_MATCH_1 STREQUAL "40"))
      continue()  # of the processors, only the co-processor subclass is one of ours
    endif()
    set(sub "${CMAKE_MATCH_1}")
    add_name("${CMAKE_MATCH_2}")
    string(APPEND classes "    {0x${cls}${sub}, ${name_offset}},\n")
  endforeach()
endforeach()

set(out_text "// Generated by cmake/embed_pci_ids.cmake from ${IDS} (pci.ids ${version}). Do not edit.
#include \"api/pci/pci_ids_table.hpp\"

namespace gpudoctor {

namespace {

const char kNames[] =
${names};

const PciIdsTable::Device kDevices[] = {
${rows}};

const PciIdsTable::Vendor kVendors[] = {
${vendors}};

const PciIdsTable::Class kClasses[] = {
${classes}};

}  // namespace

const PciIdsTable& builtin_pci_ids() {
  static const PciIdsTable table{\"${version}\", kNames, sizeof kNames, kDevices,
                                 sizeof kDevices / sizeof kDevices[0], kVendors,
                                 sizeof kVendors / sizeof kVendors[0], kClasses,
                                 sizeof kClasses / sizeof kClasses[0]};
  return table;
}

}  // namespace gpudoctor
")
file(WRITE "${OUT}.tmp" "${out_text}")
file(COPY_FILE "${OUT}.tmp" "${OUT}" ONLY_IF_DIFFERENT)
file(REMOVE "${OUT}.tmp")
