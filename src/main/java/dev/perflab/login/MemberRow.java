package dev.perflab.login;

/** One row of {@code member}, mutable because MyBatis writes the generated id back into it. */
public class MemberRow {

    private Long id;
    private String loginId;
    private String name;
    private String studentId;
    private String major;

    public static MemberRow of(String loginId, ExternalProfile profile) {
        MemberRow row = new MemberRow();
        row.loginId = loginId;
        row.name = profile.name();
        row.studentId = profile.studentId();
        row.major = profile.major();
        return row;
    }

    public Long getId() {
        return id;
    }

    public void setId(Long id) {
        this.id = id;
    }

    public String getLoginId() {
        return loginId;
    }

    public void setLoginId(String loginId) {
        this.loginId = loginId;
    }

    public String getName() {
        return name;
    }

    public void setName(String name) {
        this.name = name;
    }

    public String getStudentId() {
        return studentId;
    }

    public void setStudentId(String studentId) {
        this.studentId = studentId;
    }

    public String getMajor() {
        return major;
    }

    public void setMajor(String major) {
        this.major = major;
    }
}
