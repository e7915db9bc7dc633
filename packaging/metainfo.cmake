# AppStream metadata (software centres: GNOME Software, KDE Discover),
# named after its component id; installed by packaging/CMakeLists.txt and
# validated by tests/packaging.
set(COUPLET_HOMEPAGE_URL "https://couplet-studio.invalid/" CACHE STRING "The project's home page, for AppStream")
set(COUPLET_SCREENSHOT_BASE_URL "https://couplet-studio.invalid/raw/main/docs/screenshots" CACHE STRING
    "Where the repository's docs/screenshots are served, for AppStream")
set(COUPLET_METAINFO ${PROJECT_BINARY_DIR}/invalid.couplet_studio.CoupletStudio.metainfo.xml)
configure_file(${CMAKE_CURRENT_LIST_DIR}/couplet-studio.metainfo.xml.in ${COUPLET_METAINFO} @ONLY)
