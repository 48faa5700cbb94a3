#include "parse/pci_ids.hpp"
