# A Debian package of the install (cmake/Install.cmake):
#
#   cmake --build build && (cd build && cpack -G DEB)
#   sudo apt install ./build/soulstudio_*.deb

set(CPACK_PACKAGE_NAME soulstudio)
set(CPACK_PACKAGE_VENDOR "The Soul Studio developers")
set(CPACK_PACKAGE_VERSION ${PROJECT_VERSION})
set(CPACK_PACKAGE_DESCRIPTION_SUMMARY "editor for agent persona directories")
set(CPACK_PACKAGE_HOMEPAGE_URL ${PROJECT_HOMEPAGE_URL})
set(CPACK_PACKAGE_CONTACT "The Soul Studio developers <maintainers@soulstudio.example.org>")
set(CPACK_PACKAGING_INSTALL_PREFIX /usr)
set(CPACK_GENERATOR DEB)
# The package is for running the tools; debugging is done in a build tree.
set(CPACK_STRIP_FILES ON)

set(CPACK_DEBIAN_PACKAGE_NAME soulstudio)
set(CPACK_DEBIAN_FILE_NAME DEB-DEFAULT) # soulstudio_<version>_<arch>.deb
set(CPACK_DEBIAN_PACKAGE_SECTION editors)
set(CPACK_DEBIAN_PACKAGE_PRIORITY optional)
set(CPACK_DEBIAN_PACKAGE_MAINTAINER ${CPACK_PACKAGE_CONTACT})
# CPack puts CPACK_PACKAGE_DESCRIPTION_SUMMARY first and indents the rest as
# Debian wants it; a blank line separates paragraphs.
set(CPACK_DEBIAN_PACKAGE_DESCRIPTION "An agent persona is a directory of Markdown files (AGENTS.md, SOUL.md,
IDENTITY.md, USER.md, TOOLS.md, HEARTBEAT.md, MEMORY.md) that an agent
runtime joins into one system prompt, the soul. Soul Studio edits those
files side by side and previews the composed soul byte for byte as you
type, with size meters and warnings about truncation, byte order marks,
invalid UTF-8 and misnamed files.

The package also contains soulc, a command-line tool to compose, inspect,
check and export personas in scripts.")

# Library dependencies come from dpkg-shlibdeps when it is there (dpkg-dev);
# otherwise they are named here. Qt's platform plugins are loaded at run time,
# so dpkg-shlibdeps cannot see them: they are always named.
find_program(SOULSTUDIO_DPKG_SHLIBDEPS dpkg-shlibdeps)
set(_soulstudio_depends)
if(SOULSTUDIO_DPKG_SHLIBDEPS)
    set(CPACK_DEBIAN_PACKAGE_SHLIBDEPS ON)
else()
    list(APPEND _soulstudio_depends "libc6" "libstdc++6" "libqt6core6 (>= 6.4)" "libqt6network6 (>= 6.4)"
         "libgit2-1.5" "libyaml-cpp0.7")
    if(SOULSTUDIO_BUILD_GUI)
        list(APPEND _soulstudio_depends "libqt6gui6 (>= 6.4)" "libqt6widgets6 (>= 6.4)")
    endif()
endif()
if(SOULSTUDIO_BUILD_GUI)
    list(APPEND _soulstudio_depends "qt6-qpa-plugins")
endif()
list(JOIN _soulstudio_depends ", " CPACK_DEBIAN_PACKAGE_DEPENDS)

include(CPack)
