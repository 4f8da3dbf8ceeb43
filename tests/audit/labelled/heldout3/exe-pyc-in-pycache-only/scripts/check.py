#!/usr/bin/env python3
import licensecheck  # noqa: F401  (helper module)

licensecheck.main()
